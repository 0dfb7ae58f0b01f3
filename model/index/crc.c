/* SPDX-License-Identifier: MIT */
/* crc.c: the CRC-32 of the persistent index (codec.h index_crc32): zlib's crc32, bit for
 * bit, computed on x86-64 CPUs with carry-less multiplication (PCLMULQDQ, chosen at run
 * time) by folding 64 bytes at a time (256 with 512-bit VPCLMULQDQ, 128 with 256-bit
 * VPCLMULQDQ under AVX2, both of which also copy the bytes for index_crc32_copy), else
 * by zlib. Folding keeps four 128-bit
 * remainders, each multiplied forward over the bytes after it by x^k mod P constants of
 * the reflected polynomial 0xEDB88320 (x^(512+32), x^(512-32) for 64 bytes; x^(128+32),
 * x^(128-32) for 16); the one 128-bit value left is, for the CRC, the same as the bytes
 * it stands for: reduced to 32 bits (crc_finish), zlib does the tail (under 16). */
#include "model/index/codec.h"

#include <string.h>
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

/* The CRC of the bytes a 128-bit remainder x stands for and then n < 16 bytes at p: x
 * is a message with a zero register, reduced to its 32-bit register by folding 64 bits
 * (x^(128-32)), then 32 (x^64), then Barrett's reduction (mu = x^64 / P, P, both
 * reflected); zlib's register is the complement, and zlib goes on with the tail. */
__attribute__((target("pclmul,sse2"))) static uint32_t crc_finish(__m128i x, const unsigned char *p, size_t n)
{
	const __m128i k16 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0), k64 = _mm_set_epi64x(0, 0x163cd6124);
	const __m128i mu_p = _mm_set_epi64x(0x1f7011641, 0x1db710641), low32 = _mm_set_epi32(0, 0, 0, -1);
	x = _mm_xor_si128(_mm_clmulepi64_si128(x, k16, 0x10), _mm_srli_si128(x, 8));
	x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), k64, 0x00), _mm_srli_si128(x, 4));
	__m128i t = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), mu_p, 0x10), low32);
	x = _mm_xor_si128(x, _mm_clmulepi64_si128(t, mu_p, 0x00));
	uint32_t crc = ~(uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x, 4));
	return n ? (uint32_t)crc32_z(crc, p, n) : crc;
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
	return crc_finish(x, p, left);
}

/* 512-bit lanes: four registers of four 128-bit remainders, 256 bytes folded at a time
 * (x^(2048+32), x^(2048-32)), copied to dst on the way when dst is not NULL; the four
 * registers then folded into one (the 64-byte constants), its four remainders into one
 * (the 16-byte ones), and the rest as crc_clmul does. n >= 256. */
__attribute__((target("avx512f,vpclmulqdq,pclmul,sse2"))) static __m512i fold4(__m512i x, __m512i k)
{
	return _mm512_xor_si512(_mm512_clmulepi64_epi128(x, k, 0x00), _mm512_clmulepi64_epi128(x, k, 0x11));
}

__attribute__((target("avx512f,vpclmulqdq,pclmul,sse2"))) static uint32_t crc_vclmul(uint32_t crc, unsigned char *dst,
										      const unsigned char *p, size_t n)
{
	const __m512i k256 = _mm512_broadcast_i32x4(_mm_set_epi64x(0x1322d1430, 0x11542778a));
	const __m512i k64 = _mm512_broadcast_i32x4(_mm_set_epi64x(0x1c6e41596, 0x154442bd4));
	const __m128i k16 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	__m512i x[4];
	for (int i = 0; i < 4; i++) {
		x[i] = _mm512_loadu_si512((const void *)(p + 64 * i));
		if (dst)
			_mm512_storeu_si512((void *)(dst + 64 * i), x[i]);
	}
	x[0] = _mm512_xor_si512(x[0], _mm512_castsi128_si512(_mm_cvtsi32_si128((int)~crc)));
	size_t left = n - 256;
	for (p += 256, dst = dst ? dst + 256 : NULL; left >= 256; left -= 256, p += 256) {
		for (int i = 0; i < 4; i++) {
			__m512i y = _mm512_loadu_si512((const void *)(p + 64 * i));
			if (dst)
				_mm512_storeu_si512((void *)(dst + 64 * i), y);
			x[i] = _mm512_xor_si512(fold4(x[i], k256), y);
		}
		if (dst)
			dst += 256;
	}
	__m512i r = _mm512_xor_si512(fold4(x[0], k64), x[1]);
	r = _mm512_xor_si512(fold4(r, k64), x[2]);
	r = _mm512_xor_si512(fold4(r, k64), x[3]);
	__m128i y = _mm512_extracti32x4_epi32(r, 0);
	y = _mm_xor_si128(fold(y, k16), _mm512_extracti32x4_epi32(r, 1));
	y = _mm_xor_si128(fold(y, k16), _mm512_extracti32x4_epi32(r, 2));
	y = _mm_xor_si128(fold(y, k16), _mm512_extracti32x4_epi32(r, 3));
	if (dst)
		memcpy(dst, p, left);
	for (; left >= 16; left -= 16, p += 16)
		y = _mm_xor_si128(fold(y, k16), load(p));
	return crc_finish(y, p, left);
}

/* 256-bit lanes (AVX2 CPUs with VPCLMULQDQ, AMD Zen 3 and Intel Ice Lake on): four
 * registers of two 128-bit remainders, 128 bytes folded at a time (x^(1024+32),
 * x^(1024-32)), copied to dst on the way when dst is not NULL; then the eight
 * remainders, in the order of their bytes, folded into one (the 16-byte constants), and
 * the rest as crc_clmul does. n >= 256. */
__attribute__((target("avx2,vpclmulqdq,pclmul,sse2"))) static __m256i fold2(__m256i x, __m256i k)
{
	return _mm256_xor_si256(_mm256_clmulepi64_epi128(x, k, 0x00), _mm256_clmulepi64_epi128(x, k, 0x11));
}

__attribute__((target("avx2,vpclmulqdq,pclmul,sse2"))) static uint32_t crc_yclmul(uint32_t crc, unsigned char *dst,
										      const unsigned char *p, size_t n)
{
	const __m256i k128 = _mm256_broadcastsi128_si256(_mm_set_epi64x(0x14a7fe880, 0x1e88ef372));
	const __m128i k16 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	__m256i x[4];
	for (int i = 0; i < 4; i++) {
		x[i] = _mm256_loadu_si256((const void *)(p + 32 * i));
		if (dst)
			_mm256_storeu_si256((void *)(dst + 32 * i), x[i]);
	}
	x[0] = _mm256_xor_si256(x[0], _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)~crc)));
	size_t left = n - 128;
	for (p += 128, dst = dst ? dst + 128 : NULL; left >= 128; left -= 128, p += 128) {
		for (int i = 0; i < 4; i++) {
			__m256i y = _mm256_loadu_si256((const void *)(p + 32 * i));
			if (dst)
				_mm256_storeu_si256((void *)(dst + 32 * i), y);
			x[i] = _mm256_xor_si256(fold2(x[i], k128), y);
		}
		if (dst)
			dst += 128;
	}
	__m128i y = _mm256_castsi256_si128(x[0]);
	y = _mm_xor_si128(fold(y, k16), _mm256_extracti128_si256(x[0], 1));
	for (int i = 1; i < 4; i++) {
		y = _mm_xor_si128(fold(y, k16), _mm256_castsi256_si128(x[i]));
		y = _mm_xor_si128(fold(y, k16), _mm256_extracti128_si256(x[i], 1));
	}
	if (dst)
		memcpy(dst, p, left);
	for (; left >= 16; left -= 16, p += 16)
		y = _mm_xor_si128(fold(y, k16), load(p));
	return crc_finish(y, p, left);
}

static bool have_vclmul(void)
{
	static int have = -1;
	if (have < 0)
		have = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("vpclmulqdq");
	return have;
}

static bool have_yclmul(void)
{
	static int have = -1;
	if (have < 0)
		have = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("vpclmulqdq");
	return have;
}
#endif

uint32_t index_crc32(uint32_t crc, const void *p, size_t n)
{
#ifdef CRC_CLMUL
	if (n >= 256 && have_vclmul())
		return crc_vclmul(crc, NULL, p, n);
	if (n >= 256 && have_yclmul())
		return crc_yclmul(crc, NULL, p, n);
	if (n >= 64 && __builtin_cpu_supports("pclmul"))
		return crc_clmul(crc, p, n);
#endif
	return (uint32_t)crc32_z(crc, p, n);
}

uint32_t index_crc32_copy(uint32_t crc, void *dst, const void *src, size_t n)
{
#ifdef CRC_CLMUL
	if (n >= 256 && have_vclmul())
		return crc_vclmul(crc, dst, src, n);
	if (n >= 256 && have_yclmul())
		return crc_yclmul(crc, dst, src, n);
#endif
	memcpy(dst, src, n);
	return index_crc32(crc, src, n);
}
