/* SPDX-License-Identifier: MIT */
/* heat_kernels.c: the per-cell loops of the heatmap pyramids (heat_kernels.h). The AVX2
 * paths take four cells a step with the scalar loop's operations lane by lane: double
 * division, subtraction, multiplication and addition round as the scalar ones do,
 * cvtpd2ps as cvtsd2ss, maxps(a, b) is `a > b ? a : b`, and the double NaN they blend
 * in converts to the float NAN's bits. What is left over runs the scalar loop. */
#include "model/steps/heat_kernels.h"

#include <math.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HEAT_X86 1
#endif

static bool portable_only;

void heat_kernels_portable(bool on)
{
	portable_only = on;
}

#ifdef HEAT_X86
static bool use_avx2(void)
{
	return !portable_only && __builtin_cpu_supports("avx2");
}

__attribute__((target("avx2"))) static size_t cells_avx2(float *v, const double *x, size_t n, bool *nan)
{
	__m128 any = _mm_setzero_ps();
	size_t k = 0;
	for (; k + 4 <= n; k += 4) {
		__m128 f = _mm256_cvtpd_ps(_mm256_loadu_pd(x + k));
		_mm_storeu_ps(v + k, f);
		any = _mm_or_ps(any, _mm_cmpunord_ps(f, f));
	}
	*nan = _mm_movemask_ps(any) != 0;
	_mm256_zeroupper(); /* GCC adds none: no ymm register is written (tests/cli/vex_upper.sh) */
	return k;
}

__attribute__((target("avx2"))) static size_t cells_rel_avx2(float *v, const double *x, const double *med, size_t n,
							      bool *nan)
{
	const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0), none = _mm256_set1_pd(NAN);
	__m128 any = _mm_setzero_ps();
	size_t k = 0;
	for (; k + 4 <= n; k += 4) {
		__m256d m = _mm256_loadu_pd(med + k);
		__m256d q = _mm256_sub_pd(_mm256_div_pd(_mm256_loadu_pd(x + k), m), one);
		__m128 f = _mm256_cvtpd_ps(_mm256_blendv_pd(none, q, _mm256_cmp_pd(m, zero, _CMP_GT_OQ)));
		_mm_storeu_ps(v + k, f);
		any = _mm_or_ps(any, _mm_cmpunord_ps(f, f));
	}
	*nan = _mm_movemask_ps(any) != 0;
	return k;
}

__attribute__((target("avx2"))) static size_t halve_avx2(const float *pv, const float *pw, float *v, float *w,
							  size_t b, size_t e, double h)
{
	const __m256d hv = _mm256_set1_pd(h), inv = _mm256_set1_pd(1.0 / (2 * h)), zero = _mm256_setzero_pd();
	for (; b + 4 <= e; b += 4) {
		__m128 a0 = _mm_loadu_ps(pv + 2 * b), a1 = _mm_loadu_ps(pv + 2 * b + 4);
		__m256d even = _mm256_cvtps_pd(_mm_shuffle_ps(a0, a1, _MM_SHUFFLE(2, 0, 2, 0)));
		__m256d odd = _mm256_cvtps_pd(_mm_shuffle_ps(a0, a1, _MM_SHUFFLE(3, 1, 3, 1)));
		__m256d sum = _mm256_add_pd(_mm256_add_pd(zero, _mm256_mul_pd(even, hv)), _mm256_mul_pd(odd, hv));
		_mm_storeu_ps(v + b, _mm256_cvtpd_ps(_mm256_mul_pd(sum, inv)));
		__m128 w0 = _mm_loadu_ps(pw + 2 * b), w1 = _mm_loadu_ps(pw + 2 * b + 4);
		_mm_storeu_ps(w + b, _mm_max_ps(_mm_shuffle_ps(w0, w1, _MM_SHUFFLE(3, 1, 3, 1)),
						_mm_shuffle_ps(w0, w1, _MM_SHUFFLE(2, 0, 2, 0))));
	}
	return b;
}
#endif

bool heat_cells(float *v, const double *x, size_t n)
{
	bool nan = false;
	size_t k = 0;
#ifdef HEAT_X86
	if (use_avx2())
		k = cells_avx2(v, x, n, &nan);
#endif
	for (; k < n; k++) {
		v[k] = (float)x[k];
		nan |= isnan(v[k]);
	}
	return nan;
}

bool heat_cells_rel(float *v, const double *x, const double *med, size_t n)
{
	bool nan = false;
	size_t k = 0;
#ifdef HEAT_X86
	if (use_avx2())
		k = cells_rel_avx2(v, x, med, n, &nan);
#endif
	for (; k < n; k++) {
		v[k] = med[k] > 0 ? (float)(x[k] / med[k] - 1.0) : NAN;
		nan |= isnan(v[k]);
	}
	return nan;
}

void heat_halve(const float *pv, const float *pw, float *v, float *w, size_t b, size_t e, double h)
{
#ifdef HEAT_X86
	if (use_avx2())
		b = halve_avx2(pv, pw, v, w, b, e, h);
#endif
	double inv_n = 1.0 / (2 * h); /* sum / 2h and sum * (1 / 2h) round the same exact value */
	for (; b < e; b++) {
		double sum = 0;
		sum += (double)pv[2 * b] * h;
		sum += (double)pv[2 * b + 1] * h;
		v[b] = (float)(sum * inv_n);
		w[b] = pw[2 * b + 1] > pw[2 * b] ? pw[2 * b + 1] : pw[2 * b];
	}
}
