/* SPDX-License-Identifier: MIT */
/* test_units.c: the display rule of model/units.h: bytes with binary prefixes and 3
 * significant digits, seconds as us/ms/s with 3 significant digits (whole seconds up to 6
 * digits, exponent form from 1e6 s), percentages with
 * one decimal, n/a for missing, the same with more digits (units_format_more), the
 * one-precision-per-column decimals, the unit a column name states; and table_display,
 * which applies the rule to a table's cells while the CSV keeps the raw value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/table.h"
#include "model/units.h"
#include "tests/tap.h"

static void bytes_is(double v, const char *want)
{
	char buf[32];
	is_str(units_bytes(v, buf, sizeof(buf)), want, want);
}

static void secs_is(double v, const char *want)
{
	char buf[32];
	is_str(units_seconds(v, buf, sizeof(buf)), want, want);
}

static void display_is(const struct table *t, size_t row, int col, const char *want, const char *msg)
{
	char buf[32];
	table_display(t, row, col, buf, sizeof(buf));
	is_str(buf, want, msg);
}

int main(void)
{
	bytes_is(0, "0 B");
	bytes_is(512, "512 B");
	bytes_is(1536, "1.5 KiB");
	bytes_is(4.57601e9, "4.26 GiB");
	bytes_is(10.0 * 1024 * 1024, "10 MiB");
	bytes_is(300.0 * 1024 * 1024, "300 MiB");
	bytes_is(2.0 * 1024 * 1024 * 1024 * 1024 * 1024, "2048 TiB");
	bytes_is(-1536, "-1.5 KiB");
	bytes_is(NAN, "n/a");
	secs_is(0, "0 s");
	secs_is(0.121136, "121 ms");
	secs_is(0.008157, "8.16 ms");
	secs_is(5.601, "5.6 s");
	secs_is(4, "4 s");
	secs_is(0.9999, "1 s");
	secs_is(125.4, "125 s");
	secs_is(INFINITY, "n/a");
	secs_is(0.000850, "850 us");
	secs_is(0.0000043, "4.3 us");
	secs_is(0.01846026019999998, "18.5 ms");
	secs_is(-0.0121, "-12.1 ms");
	secs_is(1234.5, "1234 s");
	secs_is(999999.4, "999999 s");
	secs_is(999999.6, "1e+06 s");
	secs_is(1000000000.64, "1e+09 s");
	secs_is(25000000.016, "2.5e+07 s");
	is_int(units_decimals(0.775, 3), 3, "0.775 -> 3 decimals");
	is_int(units_decimals(5.601, 3), 2, "5.601 -> 2 decimals");
	is_int(units_decimals(1234, 3), 0, "1234 -> 0 decimals");
	is_int(units_decimals(0, 3), 0, "0 -> 0 decimals");
	char buf[32];
	is_str(units_format(3999, UNIT_US, buf, sizeof(buf)), "4 ms", "us column: 3999 -> 4 ms");
	is_str(units_format(107.07, UNIT_MS, buf, sizeof(buf)), "107 ms", "ms column");
	is_str(units_format(5894.02, UNIT_MIB, buf, sizeof(buf)), "5.76 GiB", "pytscope MB (2^20) column");
	is_str(units_format(1500, UNIT_MB, buf, sizeof(buf)), "1.4 GiB", "DASF MB (1e6) column");
	is_str(units_format(8.45977796471905, UNIT_PCT, buf, sizeof(buf)), "8.5%", "percent: one decimal");
	is_str(units_format(0.123456, UNIT_NONE, buf, sizeof(buf)), "0.123", "no unit: 3 significant digits");
	is_str(units_format_more(107.07, UNIT_MS, 0, buf, sizeof(buf)), "107 ms", "more 0: the rule's digits");
	is_str(units_format_more(0.10923, UNIT_S, 1, buf, sizeof(buf)), "109.2 ms", "one more: 4 significant digits");
	is_str(units_format_more(0.99994, UNIT_S, 1, buf, sizeof(buf)), "999.9 ms", "below 1 s at 4 digits: ms");
	is_str(units_format_more(0.99996, UNIT_S, 1, buf, sizeof(buf)), "1 s", "rounds to 1 s at 4 digits: s");
	is_str(units_format_more(1750, UNIT_B, 1, buf, sizeof(buf)), "1.709 KiB", "size: 4 significant digits");
	is_str(units_format_more(512.26, UNIT_B, 1, buf, sizeof(buf)), "512.3 B", "below 1 KiB: digits too");
	is_str(units_format_more(8.45977796471905, UNIT_PCT, 1, buf, sizeof(buf)), "8.46%", "percent: 2 decimals");
	is_str(units_format_more(0.123456, UNIT_NONE, 2, buf, sizeof(buf)), "0.12346", "no unit: 5 digits");
	is_str(units_format_more(NAN, UNIT_PCT, 1, buf, sizeof(buf)), "n/a", "missing percent: n/a");
	is_int(units_from_name("time_lost_s"), UNIT_S, "time_lost_s is seconds");
	is_int(units_from_name("mean_compute_ms"), UNIT_MS, "_ms");
	is_int(units_from_name("sum_us"), UNIT_US, "_us");
	is_int(units_from_name("mem_peak_mb"), UNIT_MIB, "_mb is MiB (pytscope)");
	is_int(units_from_name("pct"), UNIT_PCT, "pct");
	is_int(units_from_name("overlap_pct"), UNIT_PCT, "_pct");
	is_int(units_from_name("Duration (s)"), UNIT_S, "DASF (s)");
	is_int(units_from_name("Memory usage (Mb)"), UNIT_MB, "DASF (Mb) is 1e6 bytes");
	is_int(units_from_name("Mean GPU Memory Used (GB)"), UNIT_GB, "DASF (GB)");
	is_int(units_from_name("Percentage of total time (%)"), UNIT_PCT, "DASF (%)");
	is_int(units_from_name("Timestamp (s, host clock)"), UNIT_NONE, "a timestamp is not a duration");
	is_int(units_from_name("Throughput (MB/s)"), UNIT_NONE, "a rate is not a size");
	is_int(units_from_name("timestamp"), UNIT_NONE, "timestamp");
	is_int(units_from_name("steps"), UNIT_NONE, "steps is a count");
	is_int(units_from_name("stall_steps"), UNIT_NONE, "stall_steps is a count");
	is_int(units_from_name("rel_slowdown"), UNIT_NONE, "a ratio has no unit");
	is_int(units_parse("ms"), UNIT_MS, "parse ms");
	is_int(units_parse("tokens"), UNIT_NONE, "parse tokens: none");
	is_int(units_parse(NULL), UNIT_NONE, "parse NULL");

	struct table *t = table_new("x", NULL);
	int cs = table_add_col(t, "time_lost_s", COL_NUM, 8, 3);
	int cm = table_add_col(t, "mem_peak_mb", COL_NUM, 8, 1);
	int cr = table_add_col(t, "rel_slowdown", COL_NUM, 8, 3);
	int ci = table_add_col(t, "records", COL_INT, 8, 0);
	int cl = table_add_col(t, "latency_p99", COL_NUM, 8, 2);
	table_col_unit(t, cl, units_parse("ms"));
	size_t r = table_add_row(t, 0);
	table_set_num(t, r, cs, 0.01846026019999998);
	table_set_num(t, r, cm, 5894.02294921875);
	table_set_num(t, r, cr, -0.0004);
	table_set_int(t, r, ci, 400);
	table_set_num(t, r, cl, 19408.76546465);
	size_t r2 = table_add_row(t, 1);
	table_set_num(t, r2, cr, -0.0);
	display_is(t, r, cs, "18.5 ms", "table: a seconds column shows a time with its unit, no float noise");
	display_is(t, r, cm, "5.76 GiB", "table: a MB column shows a human size");
	display_is(t, r, cr, "-0.0004", "table: a value the column's decimals would show as zero keeps its digits");
	display_is(t, r2, cr, "0.000", "table: negative zero is zero");
	display_is(t, r, ci, "400", "table: a count as is");
	display_is(t, r, cl, "19.4 s", "table: a unit set by table_col_unit");
	display_is(t, r2, cs, "-", "table: missing is '-'");
	char *csv = NULL;
	size_t csvn = 0;
	FILE *f = open_memstream(&csv, &csvn);
	table_write_csv(t, f, 0);
	fclose(f);
	ok(strstr(csv, "0.01846026019999998,5894.02294921875,-0.0004,400,19408.76546465") != NULL,
	   "the CSV keeps the raw values in full precision");
	free(csv);
	table_free(t);
	char tiny[4];
	units_bytes(4.57601e9, tiny, sizeof(tiny));
	is_str(tiny, "4.2", "truncated, NUL-terminated");
	return tap_done();
}
