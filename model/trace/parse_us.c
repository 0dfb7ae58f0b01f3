/* SPDX-License-Identifier: MIT */
/* parse_us.c: Kineto's microsecond text ("1694128201435418", "4458676522690.655",
 * "68.0", "1.5e3") to integer nanoseconds (trace_parse_us, trace.h), exact while the
 * value in ns fits in int64; what is not plain decimal goes through a double. */
#include "model/trace/trace.h"

#include <stdint.h>
#include "model/json.h"

bool trace_parse_us(const char *s, size_t n, int64_t *out)
{
	bool neg = n > 0 && s[0] == '-';
	size_t i = neg;
	int64_t ip = 0;
	size_t nd = 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
		if (ip > (INT64_MAX / 1000 - 9) / 10)
			goto slow; /* ns would overflow int64 */
		ip = ip * 10 + (s[i] - '0');
	}
	if (nd == 0)
		goto slow;
	int64_t frac = 0;
	int fd = 0;
	bool round_up = false;
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (fd < 3)
				frac = frac * 10 + (s[i] - '0');
			else if (fd == 3)
				round_up = s[i] >= '5';
			fd++;
		}
	}
	if (i != n)
		goto slow;
	for (; fd < 3; fd++)
		frac *= 10;
	int64_t v = ip * 1000 + frac + (round_up ? 1 : 0);
	*out = neg ? -v : v;
	return true;
slow:;
	double d;
	if (!json_parse_double(s, n, &d) || !(d > -9.2e15 && d < 9.2e15))
		return false;
	double ns = d * 1000.0;
	*out = (int64_t)(ns < 0 ? ns - 0.5 : ns + 0.5);
	return true;
}
