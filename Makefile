# Builds the release binary with cargo and copies it to $(EXE): `make`, `make EXE=/tmp/sako-dev`.
# This is the makefile OpenBench runs for a public engine (`make CC=<compiler> EXE=<name> -jN`;
# CC is accepted and unused: cargo picks the compiler). See the README, "OpenBench".

EXE ?= sako
CARGO ?= cargo
# Where cargo puts its output ($$CARGO_TARGET_DIR when set).
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: all clean

all:
	$(CARGO) build --release --bin sako --target-dir "$(TARGET_DIR)"
	cp "$(TARGET_DIR)/release/sako" "$(EXE)"

# Removes the copy only; `cargo clean` removes the build.
clean:
	rm -f "$(EXE)"
