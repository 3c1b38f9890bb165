#!/usr/bin/env python3
"""Writes WordNet 3.0 as a sawtag lemma dictionary (`sawtag lemma-tables --dictionary`).

Usage: python3 scripts/wordnet_dictionary.py [WORDNET_DIR] > wordnet.tsv

WORDNET_DIR is where Debian's wordnet-base package puts the database (/usr/share/wordnet by
default). Every single-word lemma of a noun, verb, adjective or adverb is entered as itself,
and each irregular form of WordNet's exception lists ("sang" -> "sing") with its lemma; UPOS
NOUN, VERB, ADJ and ADV. WordNet's licence goes first, as comments: sawtag keeps them in the
model file with what came from the dictionary.
"""
import sys

CLASSES = {"noun": "NOUN", "verb": "VERB", "adj": "ADJ", "adv": "ADV"}

LICENCE = """\
WordNet 3.0 (Princeton University), as Debian's wordnet-base package gives it:
https://wordnet.princeton.edu/ . This software and database is being provided to you, the
LICENSEE, by Princeton University under the following license. By obtaining, using and/or
copying this software and database, you agree that you have read, understood, and will comply
with these terms and conditions.: Permission to use, copy, modify and distribute this software
and database and its documentation for any purpose and without fee or royalty is hereby
granted, provided that you agree to comply with the following copyright notice and statements,
including the disclaimer, and that the same appear on ALL copies of the software, database and
documentation, including modifications that you make for internal use or for distribution.
WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. THIS SOFTWARE AND
DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES,
EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO
REPRESENTATIONS OR WARRANTIES OF MERCHANT- ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR
THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD
PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or
Princeton may not be used in advertising or publicity pertaining to distribution of the
software and/or database. Title to copyright in this software, database and any associated
documentation shall at all times remain with Princeton University and LICENSEE agrees to
preserve same."""


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet"
    out = sys.stdout
    for line in LICENCE.splitlines():
        out.write("# " + line + "\n")
    for name, upos in CLASSES.items():
        # index.CLASS: a lemma first on each line; the licence's lines start with a space.
        with open(f"{directory}/index.{name}", encoding="latin-1") as index:
            for line in index:
                lemma = line.split(" ", 1)[0]
                if line.startswith(" ") or "_" in lemma:
                    continue
                out.write(f"{lemma}\t{upos}\t{lemma}\n")
        # CLASS.exc: "form lemma [lemma ...]"; the first lemma counts.
        with open(f"{directory}/{name}.exc", encoding="latin-1") as exceptions:
            for line in exceptions:
                fields = line.split()
                if len(fields) >= 2 and "_" not in fields[0] and "_" not in fields[1]:
                    out.write(f"{fields[0]}\t{upos}\t{fields[1]}\n")


if __name__ == "__main__":
    main()
