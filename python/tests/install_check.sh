#!/usr/bin/env bash
# Installs a sawtag build into a temporary prefix and imports the module from there, the way a
# user does: PYTHONPATH=<prefix>/lib/python3/dist-packages, no $SAWTAG_MODEL, so the model must
# be found in <prefix>/share/sawtag/. 77 = skipped (no shipped model to install).
# Usage: python/tests/install_check.sh BUILD_DIR PYTHON   (ctest runs it as python_install)
set -euo pipefail

build_dir=$(cd "$1" && pwd)
python=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/sawtag-python-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build_dir" --prefix "$prefix" > "$work/install.log"
package="$prefix/lib/python3/dist-packages/sawtag"
for file in __init__.py __init__.pyi py.typed; do
  [ -f "$package/$file" ] || { echo "python_install: $package/$file was not installed" >&2; exit 1; }
done
ls "$package"/_sawtag*.so > /dev/null
if [ ! -f "$prefix/share/sawtag/en_ewt.json" ]; then
  echo "skipped: no shipped model (models/en_ewt.json) was installed"
  exit 77
fi

cd "$work"  # not the source tree, so that nothing is imported from there
env -u SAWTAG_MODEL PYTHONPATH="$prefix/lib/python3/dist-packages" "$python" -c '
import sys, sawtag
tagger = sawtag.Tagger()
assert tagger.model_path == sys.argv[1], tagger.model_path
tags = [word.upos for word in tagger.tag("I saw a saw")[0]]
assert tags == ["PRON", "VERB", "DET", "NOUN"], tags
assert sawtag.__file__.startswith(sys.argv[2]), sawtag.__file__
print("ok")
' "$prefix/share/sawtag/en_ewt.json" "$prefix/lib/python3/dist-packages/sawtag/"
