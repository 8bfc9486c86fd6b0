# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Lint: checkpatch.pl --strict and sparse (C=2, scripts/kernel/sparse-build.sh)
# for every kernel series (scripts/kernel/series) on the kernel code,
# shellcheck on every shell file, pyflakes on every Python
# file (scripts/check/lint.sh, scripts/lint/).
#
#   make lint        report to the terminal; non-zero exit on any finding
#   make check-lint  the same, TAP in $(BUILD)/check/lint.tap

.PHONY: lint check-lint

## lint: shellcheck, pyflakes, checkpatch --strict and sparse, reported to the terminal
lint:
	$(TOP)/scripts/check/lint.sh

## check-lint: the same, TAP in check/lint.tap
check-lint:
	$(TOP)/scripts/check/lint.sh $(BUILD)/check/lint.tap
