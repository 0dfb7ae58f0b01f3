/* SPDX-License-Identifier: MIT */
/* crc.c: the CRC-32 of the persistent index (codec.h index_crc32): zlib's crc32, bit for
 * bit, computed on x86-64 CPUs with carry-less multiplication (PCLMULQDQ, chosen at run
 * time) by folding 64 bytes at a time, else by zlib. Folding keeps four 128-bit
 * remainders, each multiplied forward over the bytes after it by x^k mod P constants of
 * the reflected polynomial 0xEDB88320 (x^(512+32), x^(512-32) for 64 bytes; x^(128+32),
 * x^(128-32) for 16); the one 128-bit value left is, for the CRC, the same as the bytes
 * it stands for, so zlib finishes it (16 bytes) and the tail (under 16). */
#include "model/index/codec.h"

#include <zlib.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CRC_CLMUL 1

__attribute__((target("pclmul,sse2"))) static __m128i fold(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

static __m128i load(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* n >= 64 bytes. */
__attribute__((target("pclmul,sse2"))) static uint32_t crc_clmul(uint32_t crc, const unsigned char *p, size_t n)
{
	const __m128i k64 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4), k16 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	__m128i x0 = _mm_xor_si128(load(p), _mm_cvtsi32_si128((int)~crc));
	__m128i x1 = load(p + 16), x2 = load(p + 32), x3 = load(p + 48);
	size_t left = n - 64;
	for (p += 64; left >= 64; left -= 64, p += 64) {
		x0 = _mm_xor_si128(fold(x0, k64), load(p));
		x1 = _mm_xor_si128(fold(x1, k64), load(p + 16));
		x2 = _mm_xor_si128(fold(x2, k64), load(p + 32));
		x3 = _mm_xor_si128(fold(x3, k64), load(p + 48));
	}
	__m128i x = _mm_xor_si128(fold(x0, k16), x1);
	x = _mm_xor_si128(fold(x, k16), x2);
	x = _mm_xor_si128(fold(x, k16), x3);
	for (; left >= 16; left -= 16, p += 16)
		x = _mm_xor_si128(fold(x, k16), load(p));
	/* x is a message with a zero register; zlib's register starts at ~crc: flip its
	 * first 32 bits so that zlib's start cancels */
	unsigned char b[16];
	_mm_storeu_si128((__m128i *)(void *)b, _mm_xor_si128(x, _mm_cvtsi32_si128(-1)));
	return (uint32_t)crc32_z(crc32_z(0, b, sizeof(b)), p, left);
}
#endif

uint32_t index_crc32(uint32_t crc, const void *p, size_t n)
{
#ifdef CRC_CLMUL
	if (n >= 64 && __builtin_cpu_supports("pclmul"))
		return crc_clmul(crc, p, n);
#endif
	return (uint32_t)crc32_z(crc, p, n);
}
