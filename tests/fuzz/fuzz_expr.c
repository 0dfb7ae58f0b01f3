/* SPDX-License-Identifier: MIT */
/* fuzz_expr.c: the expression parsers a user types. Byte 0 chooses: 0 --filter (and the
 * explorer's /) on a table with text, integer and number columns; 1 --sort; 2
 * --objective and 3 --constraint, each checked for syntax and, when accepted, applied
 * to a small GenAI-Perf sweep (metric resolution, ranking, the sweep view). The rest
 * of the input is the expression (a NUL ends it). */
#include "tests/fuzz/fuzz.h"
#include "model/sweep/rank.h"
#include "src/export.h"

static struct table *fixed_table(void)
{
	struct table *t = table_new("t", NULL);
	int name = table_add_col(t, "name", COL_TEXT, 8, 0);
	int n = table_add_col(t, "n", COL_INT, 4, 0);
	int x = table_add_col(t, "time_ms", COL_NUM, 8, 3);
	static const char *const names[] = { "rank0", "=cmd", "Ünïcode", "", "a,b\"c" };
	for (int r = 0; r < 5; r++) {
		size_t row = table_add_row(t, r);
		table_set_text(t, row, name, names[r]);
		if (r != 3)
			table_set_int(t, row, n, (long long)r * 2305843009213693951LL);
		table_set_num(t, row, x, r == 4 ? -0.0 : r * 1.5e300);
	}
	return t;
}

static void apply_to_sweep(const char *objective, const char *constraint)
{
	static const char summary[] =
		"{\"request_latency\":{\"unit\":\"ms\",\"avg\":100,\"p50\":90,\"p90\":150,\"p99\":200},"
		"\"time_to_first_token\":{\"unit\":\"ms\",\"avg\":10,\"p50\":9,\"p90\":15,\"p99\":20},"
		"\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":5},"
		"\"output_token_throughput\":{\"unit\":\"tokens/sec\",\"avg\":500},"
		"\"input_config\":{\"concurrency\":4}}\n";
	fuzz_write("s/m_concurrency4/m_genai_perf.json", summary, sizeof(summary) - 1);
	const char *constraints[] = { constraint };
	struct opts opts = { .jobs = 1, .objective = objective, .constraints = constraints,
			     .nconstraints = constraint ? 1 : 0 };
	fuzz_load("s", &opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *expr = strndup((const char *)data + 1, size - 1);
	if (!expr)
		abort();
	char err[256];
	switch (data[0] % 4) {
	case 0:
	case 1: {
		struct table *t = fixed_table();
		if (data[0] % 4 == 0)
			table_filter(t, expr, err, sizeof(err));
		else
			export_apply_sort(t, expr, err, sizeof(err));
		table_write_csv(t, fuzz_null(), 0);
		table_free(t);
		break;
	}
	case 2:
		if (sweep_objective_syntax(expr, err, sizeof(err)) == 0)
			apply_to_sweep(expr, NULL);
		break;
	case 3:
		if (sweep_constraint_syntax(expr, err, sizeof(err)) == 0)
			apply_to_sweep(NULL, expr);
		break;
	}
	free(expr);
	return 0;
}
