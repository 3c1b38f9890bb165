#!/usr/bin/env python3
"""Speed of the Python module against the CLI; prints a table. Not a test (figures vary with the
machine and its load: `uptime` is printed beside them). Runs are taken in turns, best of N.

    PYTHONPATH=build/python bench/python_speed.py [BUILD_DIR] [RUNS]

- EWT test text x5 (the '# text' lines of en_ewt-ud-test.conllu, five times; $SAWTAG_UD_DIR or
  ../shared/data/ud-english-ewt): `sawtag tag -j 1` against a fresh `python3 -c` that imports
  sawtag, loads the model and calls Tagger().tag(text, threads=1): both start-up included.
- one Tagger shared by two Python threads (threads=1 each) against one thread, the same text
  each, in one process after the model is loaded: words/s of both together over one's.
"""

import os
import subprocess
import sys
import tempfile
import threading
import time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "build")
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
sawtag_cli = os.path.join(build, "app", "sawtag")
model = os.path.join(here, "models", "en_ewt.json")
ud = os.environ.get("SAWTAG_UD_DIR", os.path.join(here, "..", "shared", "data", "ud-english-ewt"))
test = os.path.join(ud, "en_ewt-ud-test.conllu")
if not os.path.isfile(test):
    print("skipped: " + test + " not found", file=sys.stderr)
    sys.exit(0)
sys.path.insert(0, os.path.join(build, "python"))
import sawtag  # noqa: E402

with open(test, encoding="utf-8") as conllu:
    text = "".join(line[len("# text = "):] for line in conllu if line.startswith("# text = "))
text *= 5
work = tempfile.mkdtemp()
text_path = os.path.join(work, "test5.txt")
with open(text_path, "w", encoding="utf-8") as out:
    out.write(text)

tagger = sawtag.Tagger(model)
words = sum(len(sentence) for sentence in tagger.tag(text, threads=1))


def load():
    return os.getloadavg()[0]


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=dict(
        os.environ, PYTHONPATH=os.path.join(build, "python")))
    return time.perf_counter() - start


python_program = ("import sawtag\n"
                  f"text = open({text_path!r}, encoding='utf-8').read()\n"
                  f"sawtag.Tagger({model!r}).tag(text, threads=1)\n")


def threads_rate(count):
    """Words/s of `count` threads each tagging the text once with the shared tagger."""
    def work():
        tagger.tag(text, threads=1)
    pool = [threading.Thread(target=work) for _ in range(count)]
    start = time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return count * words / (time.perf_counter() - start)


best = {"cli": float("inf"), "python": float("inf"), "one": 0.0, "two": 0.0}
loads = []
for _ in range(runs):
    loads.append(load())
    best["cli"] = min(best["cli"], timed([sawtag_cli, "tag", "-j", "1", "-m", model, text_path]))
    best["python"] = min(best["python"], timed([sys.executable, "-c", python_program]))
    best["one"] = max(best["one"], threads_rate(1))
    best["two"] = max(best["two"], threads_rate(2))
loads.append(load())

cli_rate = words / best["cli"]
python_rate = words / best["python"]
print(f"machine: {os.cpu_count()} cores; load average (1 min) during the runs: "
      f"{min(loads):.1f} to {max(loads):.1f}")
print(f"EWT test text x5: {words} words; best of {runs} runs each, taken in turns")
print(f"{'sawtag tag -j 1 (start-up included)':48} {cli_rate:10.0f} words/s")
print(f"{'python: Tagger().tag(text, threads=1), same':48} {python_rate:10.0f} words/s"
      f" ({python_rate / cli_rate:.2f}x the CLI)")
print(f"{'one Python thread, model loaded':48} {best['one']:10.0f} words/s")
print(f"{'two Python threads sharing one Tagger':48} {best['two']:10.0f} words/s"
      f" ({best['two'] / best['one']:.2f}x one)")
