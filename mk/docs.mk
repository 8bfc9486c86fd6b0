# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Documentation/: rst syntax (docutils, and sphinx -W when installed), the
# contract pages against the headers, the source tree against the pages'
# file tables (check-layout.py: no #include or call cycle, driver.rst's
# layered tables, a row for every file; needs universal-ctags from
# scripts/deps/docs.sh); and over every tracked file, no issue or stop
# (work session) named by its number.

.PHONY: check-docs
## check-docs: Documentation/ rst, contract tables, file tables and layout, TAP in check/docs.tap
check-docs:
	@$(TOP)/scripts/check/docs.sh
