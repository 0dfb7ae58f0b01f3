# tscope-tui: a terminal explorer for ML training and inference performance runs.
# Layers: model/ (no curses) <- ui/ (the only curses code) <- src/ (main, CLI, print, export).
# Targets: all demo check check-asan bench install uninstall deps clean check-layers.

PREFIX     ?= /usr/local
DESTDIR    ?=
CC         ?= cc
PKG_CONFIG ?= pkg-config
BUILD      ?= build
VERSION    := $(shell git -c safe.directory='*' describe --tags --always --dirty 2>/dev/null || echo unknown)

CFLAGS   ?= -O2 -g
WARN      = -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter $(if $(CI),-Werror)
CPPFLAGS += -I. -D_GNU_SOURCE -DTSCOPE_VERSION='"$(VERSION)"'
NCURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)
LDLIBS   += $(NCURSES_LIBS) -lcsv -lz -lpthread -lm
# msgpack-c writes the DASF fixtures (tests/tools/dasf_writer.h); the program reads
# MessagePack itself (model/dasf/load_mp.c) and is not linked with it.
FIXTURE_LIBS := -lmsgpackc

MODEL_SRC := $(sort $(wildcard model/*.c model/*/*.c))
UI_SRC    := $(sort $(wildcard ui/*.c))
APP_SRC   := $(filter-out src/main.c,$(sort $(wildcard src/*.c)))
LIB_OBJ   := $(patsubst %.c,$(BUILD)/%.o,$(MODEL_SRC) $(UI_SRC) $(APP_SRC))
MAIN_OBJ  := $(BUILD)/src/main.o
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
TOOL_SRC  := $(sort $(wildcard tests/tools/*.c))
TOOL_BIN  := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(TOOL_SRC))
BIN       := tscope-tui

ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: all demo check check-asan fuzz fuzz-build bench install uninstall deps deps-build clean check-layers tests FORCE

all: $(BIN)

# Every build first checks the build dependencies (.ci/deps.sh: as root with apt-get it
# installs what is missing, else it prints the apt-get command to run and stops), so a
# plain `make` or `make install` never ends in a compiler error about a missing header.
deps-build:
	@sh .ci/deps.sh
$(LIB_OBJ) $(MAIN_OBJ): | deps-build

$(BIN): $(BUILD)/$(BIN)
	rm -f $@ && cp $< $@

$(BUILD)/$(BIN): $(LIB_OBJ) $(MAIN_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/ui/%.o: ui/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(NCURSES_CFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

# The objects that embed $(VERSION) are rebuilt when it changes (a new commit, a dirty tree),
# so --version never names an older build's commit.
VERSION_STAMP := $(BUILD)/version.txt
$(VERSION_STAMP): FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = "$(VERSION)" ] || echo "$(VERSION)" >$@
$(MAIN_OBJ) $(BUILD)/src/index_cmd.o $(BUILD)/model/steps/analysis_index.o: $(VERSION_STAMP)
FORCE:

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(NCURSES_CFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) $(FIXTURE_LIBS)

# The fault-injecting build (tests/cli/alloc_failure.sh): TSCOPE_FAIL_ALLOC=N fails the
# Nth allocation.
FAULTY := $(BUILD)/tests/tscope-tui-faulty
$(BUILD)/tests/xalloc_fault.o: model/xalloc.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DTSCOPE_FAULT_INJECT $(WARN) $(CFLAGS) -c -o $@ $<

$(FAULTY): $(filter-out $(BUILD)/model/xalloc.o,$(LIB_OBJ)) $(BUILD)/tests/xalloc_fault.o $(MAIN_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Fuzz harnesses (tests/fuzz/fuzz_NAME.c): replay_NAME is the harness with
# tests/fuzz/replay.c's main(), built like the unit tests, so `make check` replays the
# seed and regression corpora; `make fuzz` builds them with libFuzzer (below).
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
REPLAY_BIN := $(patsubst tests/fuzz/fuzz_%.c,$(BUILD)/tests/replay_%,$(FUZZ_SRC))
$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay.c $(LIB_OBJ) $(LDLIBS)

$(BUILD)/tests/%: tests/tools/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS) $(FIXTURE_LIBS)

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)

deps:
	@sh .ci/deps.sh

tests: $(BUILD)/$(BIN) $(UNIT_BIN) $(TOOL_BIN) $(FAULTY) $(REPLAY_BIN)

testdata/demo/rank0/steps.jsonl: $(BUILD)/tests/gen_demo
	$(BUILD)/tests/gen_demo testdata/demo

# `make demo`: install missing deps when possible, build, open the bundled demo run.
demo:
	@sh .ci/deps.sh
	@$(MAKE) --no-print-directory all
	./$(BIN) testdata/demo

# `make check`: deps (with test tools), build, then the whole suite; ends with "N passed, N failed, N skipped".
check:
	@sh .ci/deps.sh --test
	@$(MAKE) --no-print-directory check-layers
	@$(MAKE) --no-print-directory all tests
	TSCOPE_BUILD=$(BUILD) sh tests/run.sh

check-asan:
	@sh .ci/deps.sh --test
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" build-asan/$(BIN) tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  TSCOPE_BUILD=build-asan sh tests/run.sh

bench:
	@sh .ci/deps.sh --bench
	@$(MAKE) --no-print-directory all $(TOOL_BIN)
	TSCOPE_BUILD=$(BUILD) sh tests/bench.sh

# The model never sees curses or the layers above it; ui/ never sees src/.
check-layers:
	@! grep -rnE '#include *[<"](n?curses|ui/|src/)' model/ || { echo "layer violation: model/ includes curses, ui/ or src/" >&2; exit 1; }
	@! grep -rnE '#include *"src/' ui/ || { echo "layer violation: ui/ includes src/" >&2; exit 1; }
	@! grep -rlE '#include *<n?curses' src/ || { echo "layer violation: src/ includes curses" >&2; exit 1; }

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)
	install -m 644 man/tscope-tui.1 $(DESTDIR)$(PREFIX)/share/man/man1/tscope-tui.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(BIN) $(DESTDIR)$(PREFIX)/share/man/man1/tscope-tui.1

# `make fuzz`: every harness built with clang -fsanitize=fuzzer,address,undefined (the
# objects in build-fuzz/), then run one at a time for FUZZ_SECONDS each (tests/fuzz/run.sh:
# working corpora, crashes and stats.tsv in build-fuzz/). FUZZ=name1,name2 picks harnesses.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_CFLAGS  := -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_BIN     := $(patsubst tests/fuzz/fuzz_%.c,$(BUILD)/fuzz/fuzz_%,$(FUZZ_SRC))

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(LDLIBS)

fuzz-build:
	@sh .ci/deps.sh --fuzz
	@$(MAKE) -s --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_CFLAGS)" $(patsubst $(BUILD)/%,build-fuzz/%,$(FUZZ_BIN))

fuzz: fuzz-build
	sh tests/fuzz/run.sh build-fuzz/fuzz $(FUZZ_SECONDS) $(subst $(comma), ,$(FUZZ))

comma := ,

clean:
	rm -rf build build-asan build-fuzz $(BIN)
