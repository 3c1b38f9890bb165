#!/usr/bin/env bash
# Every relative link of the project's Markdown files leads somewhere: the file exists, and a
# "#anchor" is a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces
# as hyphens: "## `sawtag tag`" -> #sawtag-tag). Links to the web are not followed.
#   tests/markdown_links.sh SOURCE_DIR     (ctest runs it as markdown_links)
set -euo pipefail
cd "$1"

# The anchors of a Markdown file's headings, one a line (fenced code is not read).
anchors() {
  awk '/^```/ { fenced = !fenced; next } !fenced && /^#+ / { sub(/^#+ +/, ""); print }' "$1" |
    tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g'
}

# The link targets of a Markdown file, one a line: [text](target) outside fenced code.
links() {
  awk '/^```/ { fenced = !fenced; next } !fenced { print }' "$1" |
    grep -oE '\]\([^) ]+\)' | sed -e 's/^](//' -e 's/)$//' || true
}

broken=0
checked=0
while IFS= read -r file; do
  directory=$(dirname "$file")
  while IFS= read -r target; do
    case $target in http://* | https://* | mailto:*) continue ;; esac
    checked=$((checked + 1))
    path=${target%%#*}
    anchor=
    [[ $target == *"#"* ]] && anchor=${target#*#}
    destination=$file
    [ -n "$path" ] && destination="$directory/$path"
    if [ ! -e "$destination" ]; then
      echo "$file: broken link ($target): no file $destination" >&2
      broken=$((broken + 1))
    elif [ -n "$anchor" ] && ! anchors "$destination" | grep -qxF "$anchor"; then
      echo "$file: broken link ($target): no heading for #$anchor in $destination" >&2
      broken=$((broken + 1))
    fi
  done < <(links "$file")
done < <(find . -name '*.md' -not -path './build*' -not -path './.git/*' -not -path './out/*' | sort)

if [ "$broken" -ne 0 ]; then
  echo "markdown_links: $broken of $checked links broken" >&2
  exit 1
fi
echo "markdown_links: all $checked relative links lead somewhere"
