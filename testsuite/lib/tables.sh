# tables.sh - the harness's tables: tab-separated files whose first line
# that is not a comment names the columns (testsuite/stacks.tsv,
# testsuite/guest/jobs.tsv), "-" an empty field; and its lists
# (testsuite/guest/lists/): names, blank-separated, "#" to the line's end
# a comment.  Sourced (bash); needs nothing else.
# shellcheck shell=bash

# table_rows FILE COLUMN...: each row's COLUMNs, in that order, separated
# by the unit separator ($'\x1f', which read keeps apart where tabs would
# merge): `while IFS=$'\x1f' read -r a b; do ...; done < <(table_rows F a b)`.
# A row with more or fewer fields than the header, or a COLUMN the header
# lacks, is an error that names FILE:LINE (status 2).
table_rows() {
	local file=$1
	shift
	awk -F'\t' -v cols="$*" -v file="$file" '
		BEGIN { n = split(cols, want, " ") }
		/^#/ || /^[ \t]*$/ { next }
		!ncol {
			ncol = NF
			for (i = 1; i <= NF; i++) idx[$i] = i
			for (k = 1; k <= n; k++)
				if (!(want[k] in idx)) {
					printf "%s:%d: no column \"%s\"\n", file, NR, want[k] > "/dev/stderr"
					bad = 1; exit 2
				}
			next
		}
		NF != ncol {
			printf "%s:%d: %d fields, the header has %d (tab-separated, \"-\" for none)\n",
				file, NR, NF, ncol > "/dev/stderr"
			bad = 1; exit 2
		}
		{
			line = ""
			for (k = 1; k <= n; k++) {
				v = $(idx[want[k]])
				line = line (k > 1 ? "\037" : "") (v == "-" ? "" : v)
			}
			print line
		}
		END { if (!ncol && !bad) { printf "%s: no header\n", file > "/dev/stderr"; exit 2 } }' "$file"
}

# list_names FILE: the names of list FILE, one a line.
list_names() {
	sed 's/#.*//' "$1" | tr -s ' \t' '\n' | sed '/^$/d'
}
