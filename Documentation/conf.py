# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sphinx configuration for Wren's Documentation/ (see README).
project = "Wren"
copyright = "Wren contributors"
master_doc = "index"
exclude_patterns = ["README"]
extensions = []
html_theme = "alabaster"
# Every warning is a documentation bug: check-docs.sh builds with -W.
nitpicky = False
