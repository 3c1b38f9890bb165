#!/usr/bin/env python3
"""Hostile model files of up to 100 MB: what each costs sawtag to refuse (or to load and tag).

Not part of the test suite (the figures depend on the machine and its load); the tests check
each refusal's message on small files. Prints one row per case: exit status, peak RSS (GNU
time's "Maximum resident set size"), wall seconds, CPU seconds (user + sys), and the first line
sawtag wrote on stderr.

    bench/hostile_models.py [BUILD_DIR] [CASE...]     # the files are made in a temporary folder

The acceptance (issue 19): each file is refused with a one-line error within 100 MB and 2 s, or
loads and tagging "I saw a saw" stays under 1 GB and 10 s.
"""
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
from array import array

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = 100 * 1000 * 1000  # bytes of each hostile file


def head(rest=""):
    return '{"format": "sawtag-model", "version": 3' + rest


def render(document):
    """sawtag's own layout: one section a line, the tensors last."""
    lines = []
    for key, value in document.items():
        lines.append(' %s: %s' % (json.dumps(key), json.dumps(value, ensure_ascii=False,
                                                           separators=(",", ":"))))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def big_model(num_words, encoding):
    """A valid model of the shipped model's weights, its vocabulary grown to `num_words` (the
    new rows copies of <unk>), every tensor "float32" or "float16" (base64) or "json" (arrays
    of numbers). 125,000 words of float32 are 95 MB, 250,000 of float16 93 MB, 60,000 of JSON
    numbers 92 MB."""
    document = json.load(open(os.path.join(HERE, "models", "en_ewt.json")))
    words = document["vocabularies"]["words"]
    embedding = document["tensors"]["encoder.word_embedding"]
    rows, cols = embedding["shape"]
    scales = array("f", base64.b64decode(embedding["scales"][len("base64:"):]))
    values = array("b", base64.b64decode(embedding["data"][len("base64:"):]))
    keep = min(rows, num_words)
    floats = array("f", (values[i] * scales[i // cols] for i in range(keep * cols)))
    del words[keep:]
    extra = num_words - keep
    words.extend("w%07d" % i for i in range(extra))
    floats.extend(floats[:cols] * extra)
    document["tensors"]["encoder.word_embedding"] = {
        "shape": [num_words, cols], "dtype": "float32", "data": floats}
    for name, tensor in document["tensors"].items():
        if tensor["dtype"] == "float16":
            halves = base64.b64decode(tensor["data"][len("base64:"):])
            tensor["data"] = array("f", struct.unpack("<%de" % (len(halves) // 2), halves))
            tensor["dtype"] = "float32"
    for tensor in document["tensors"].values():
        data = tensor["data"]
        if encoding == "float32":
            tensor["data"] = "base64:" + base64.b64encode(data.tobytes()).decode()
        elif encoding == "float16":
            halves = b"".join(struct.pack("<%de" % len(data[i:i + 1000000]), *data[i:i + 1000000])
                              for i in range(0, len(data), 1000000))
            tensor["dtype"] = "float16"
            tensor["data"] = "base64:" + base64.b64encode(halves).decode()
        elif encoding == "zeros":  # JSON numbers, each "0": 2 bytes of the file a float
            tensor["data"] = [0] * len(data)
        else:
            tensor["data"] = [float("%.6g" % x) for x in data]
    return document


def tiny_model(words, encoding="float16"):
    """A valid model with the smallest dimensions and the vocabulary `words` (its first word
    "<unk>"): every dimension 1 (d_model 2), so its word embedding costs a few bytes a word;
    every weight 0.5. encoding: "float16", "float32" (base64) or "json" (numbers)."""
    config = {"word_dim": 1, "char_dim": 1, "char_widths": [1], "char_filters": 1,
              "max_word_chars": 8, "shape_dim": 1, "d_model": 2, "num_heads": 1,
              "num_layers": 1, "d_ff": 1, "relative_position": True,
              "max_relative_distance": 1, "layer_norm_epsilon": 1e-05,
              "max_sequence_length": 64}
    chars = ["<pad>", "<unk>", "<w>", "</w>", "a", "s", "w", "I"]
    upos, xpos = ["NOUN", "VERB", "PRON", "DET"], ["NN", "VBD", "PRP", "DT"]
    d, f = config["d_model"], config["d_ff"]
    shapes = [("encoder.word_embedding", [len(words), 1]), ("encoder.char_embedding", [len(chars), 1]),
              ("encoder.char_convolutions.0.weight", [1, 1]), ("encoder.char_convolutions.0.bias", [1]),
              ("encoder.shape_embedding", [11, 1]), ("encoder.input_projection.weight", [3, d]),
              ("encoder.input_projection.bias", [d])]
    layer = "encoder.layers.0."
    shapes += [(layer + "attention_norm.gamma", [d]), (layer + "attention_norm.beta", [d])]
    for part in ("query", "key", "value", "output"):
        shapes += [(layer + "attention.%s.weight" % part, [d, d]), (layer + "attention.%s.bias" % part, [d])]
    shapes += [(layer + "attention.relative_bias", [1, 3]),
               (layer + "feed_forward_norm.gamma", [d]), (layer + "feed_forward_norm.beta", [d]),
               (layer + "feed_forward.hidden.weight", [d, f]), (layer + "feed_forward.hidden.bias", [f]),
               (layer + "feed_forward.output.weight", [f, d]), (layer + "feed_forward.output.bias", [d]),
               ("encoder.final_norm.gamma", [d]), ("encoder.final_norm.beta", [d]),
               ("heads.upos.weight", [d, len(upos)]), ("heads.upos.bias", [len(upos)]),
               ("heads.xpos.weight", [d, len(xpos)]), ("heads.xpos.bias", [len(xpos)])]
    tensors = {}
    for name, shape in shapes:
        count = 1
        for dimension in shape:
            count *= dimension
        if encoding == "json":
            data, dtype = [0.5] * count, "float32"
        elif encoding == "float32":
            data, dtype = "base64:" + base64.b64encode(struct.pack("<f", 0.5) * count).decode(), "float32"
        else:
            data, dtype = "base64:" + base64.b64encode(struct.pack("<e", 0.5) * count).decode(), "float16"
        tensors[name] = {"shape": shape, "dtype": dtype, "data": data}
    return {"format": "sawtag-model", "version": 2, "config": config,
            "vocabularies": {"words": words, "chars": chars}, "tag_sets": {"upos": upos, "xpos": xpos},
            "tokenizer": {"multiword_tokens": {}, "abbreviations": []}, "training": {},
            "self_tests": [], "tensors": tensors}


def distinct_words(count, length):
    """ "<unk>" and count - 1 distinct words of `length` letters."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["<unk>"]
    for i in range(count - 1):
        word = []
        for _ in range(length):
            word.append(letters[i % 26])
            i //= 26
        words.append("".join(word))
    return words


def with_last_nan(text):
    """`text` with the last float16 value of its last base64 tensor made NaN."""
    last = text.rfind('"base64:') + len('"base64:')
    end = text.find('"', last)
    halves = bytearray(base64.b64decode(text[last:end]))
    halves[-2:] = b"\x00\x7e"
    return text[:last] + base64.b64encode(bytes(halves)).decode() + text[end:]


def cases(work):
    """(name, bytes or a function writing the file)."""
    yield "spaces: '{' and 100 MB of spaces", "{" + " " * SIZE + "}"
    yield "one 100 MB string value", head(', "training": {"a": "' + "a" * SIZE + '"}}')
    yield "one 100 MB string, never closed", head(', "training": {"a": "' + "a" * SIZE)
    yield "one 100 MB key", '{"' + "k" * SIZE + '": 1}'
    yield "one 100 MB number", head(', "config": {"word_dim": ' + "1" * SIZE + '}}')
    yield "a 100 MB fraction", head(', "config": {"layer_norm_epsilon": 0.' + "0" * SIZE + '1}}')
    yield "'junk': [0, 0, ...] 100 MB", '{"junk": [' + "0," * (SIZE // 2) + '0]}'
    yield "100 MB of '[]' between scalars", head(', "self_tests": [' + "[]," * (SIZE // 3) + "[]]}")
    yield "5 M '[]' as vocabulary words", head(
        ', "vocabularies": {"words": [' + "[]," * 4999000 + '[]]}}')
    yield "5 M '[]' as vocabulary chars", head(
        ', "vocabularies": {"chars": [' + "[]," * 4999000 + '[]]}}')
    yield "5 M numbers as vocabulary words", head(
        ', "vocabularies": {"words": [' + "0," * 4999000 + '0]}}')
    yield "5 M empty strings as words", head(
        ', "vocabularies": {"words": [' + '"",' * 4999000 + '""]}}')
    # Vocabularies of millions of words (issue 19): 5 M is the most a model may have.
    words = distinct_words(5000000, 5)
    yield "5 M distinct words of 5 bytes, nothing else", head(
        ', "vocabularies": {"words": ' + json.dumps(words) + '}}')
    tiny = tiny_model(words)
    no_tensors = dict(tiny)
    del no_tensors["tensors"]
    yield "5 M words and a valid config, no tensors", render(no_tensors)
    text = render(tiny)
    yield "a valid 5 M-word model (word_dim 1, float16)", text
    yield "the 5 M-word model, NaN in its last value", with_last_nan(text)
    tiny["vocabularies"]["words"] = words[:-1] + ["abcde"]
    yield "the 5 M-word model, its last word a repeat", render(tiny)
    tiny["vocabularies"]["words"] = words[:-1] + ["<unk>"]
    tiny["vocabularies"]["words"][0] = "<UNK>"
    yield "the 5 M-word model, no '<unk>' first", render(tiny)
    del words, tiny, no_tensors, text
    words = distinct_words(1400000, 64)
    tiny = tiny_model(words)
    text = render(tiny)
    yield "a valid model of 1.4 M words of 64 bytes (97 MB)", text
    yield "the 1.4 M-word model, NaN in its last value", with_last_nan(text)
    tiny["vocabularies"]["words"] = words[:-1] + [words[1]]
    yield "the 1.4 M-word model, its last word a repeat", render(tiny)
    del words, tiny, text
    shipped = json.load(open(os.path.join(HERE, "models", "en_ewt.json")))
    del shipped["tensors"]
    shipped["tokenizer"]["abbreviations"] = ["%07d" % i + "a" * 70000 for i in range(1400)]
    yield "1,400 abbreviations of 70 KB, no tensors", render(shipped)
    shipped["tokenizer"]["abbreviations"] = []
    shipped["training"] = {"%07d" % i: "a" * 70000 for i in range(1400)}
    yield "1,400 training fields of 70 KB, no tensors", render(shipped)
    shipped["training"] = {}
    shipped["learned_tokenizer"] = "{" + " " * 60 + "x" * 95000000 + "}"
    yield "the shipped model with a 95 MB learned tokenizer of garbage", render(shipped)
    shipped["learned_tokenizer"] = "{" + " " * 60 + "x" * 16000000 + "}"
    yield "the shipped model with a 16 MB learned tokenizer of garbage", render(shipped)
    del shipped["learned_tokenizer"]
    shipped["self_tests"] = [{"words": ["I"], "upos": ["PRON"]}] * 100000
    yield "the shipped model, no tensors, 100,000 self-tests", render(shipped)
    del shipped
    shipped = json.load(open(os.path.join(HERE, "models", "en_ewt.json")))
    shipped["self_tests"] = [{"words": ["I", "saw", "a", "saw"],
                              "upos": ["PRON", "VERB", "DET", "NOUN"]}] * 15000
    yield "the shipped model with 15,000 self-tests", render(shipped)
    shipped["self_tests"] = [{"words": ["I"], "upos": ["PRON"]}] * 36000
    yield "the shipped model with 36,000 one-word self-tests", render(shipped)
    shipped["self_tests"] = []
    shipped["tokenizer"]["multiword_tokens"] = {
        "w%05dx" % i: ["w%05d" % i, "x"] for i in range(40000)}
    yield "the shipped model with 40,000 multi-word tokens", render(shipped)
    del shipped
    chinese = json.load(open(os.path.join(HERE, "models", "zh_gsd.json")))
    inner = json.loads(chinese["learned_tokenizer"])
    embedding = inner["tensors"]["encoder.word_embedding"]
    rows, cols = embedding["shape"]
    halves = base64.b64decode(embedding["data"][len("base64:"):])
    extra = 62000  # just under the cap on a learned tokenizer's document (16 MiB)
    inner["vocabularies"]["words"] += ["x%07d" % i for i in range(extra)]
    embedding["shape"] = [rows + extra, cols]
    embedding["data"] = "base64:" + base64.b64encode(halves + halves[: 2 * cols] * extra).decode()
    chinese["learned_tokenizer"] = render(inner)
    text = render(chinese)
    yield "the Chinese model, its learned tokenizer grown to %d MB" % (
        len(chinese["learned_tokenizer"]) // 1000000), text
    chinese["learned_tokenizer"] = with_last_nan(chinese["learned_tokenizer"])
    yield "the grown Chinese model, NaN in its learned tokenizer's last value", render(chinese)
    del chinese, inner, text
    document = big_model(125000, "float32")
    big = render(document)
    yield "a valid 95 MB float32 model", big
    yield "the 95 MB model, cut at 90%", big[: len(big) * 9 // 10]
    last = big.rfind('"base64:')
    end = big.find('"', last + 8)
    yield "the 95 MB model, NaN in its last value", big[: end - 8] + "AADAfw==" + big[end:]
    first = big.find('"base64:', big.find('"encoder.word_embedding"'))
    first_end = big.find('"', first + 8)
    yield "the 95 MB model, a bad character at the end of the embedding", (
        big[: first_end - 8] + "!AAA" + big[first_end - 4:])
    del document["tensors"]["heads.xpos.bias"]
    yield "the 95 MB model, its last tensor missing", render(document)
    del document, big
    big = render(big_model(250000, "float16"))
    yield "a valid 93 MB float16 model", big
    last = big.rfind('"base64:')
    end = big.find('"', last + 8)
    yield "the 93 MB float16 model, NaN in its last value", big[: end - 4] + "AH4=" + big[end:]
    del big
    big = render(big_model(60000, "json"))
    yield "a valid 92 MB model of JSON numbers", big
    yield "the 92 MB JSON model, a string as its last value", big[: big.rfind("]")] + ',"x"]}}\n}\n'
    yield "the 92 MB JSON model, cut at 90%", big[: len(big) * 9 // 10]
    embedding = big.find('"data":[', big.find('"encoder.word_embedding"'))
    del big
    document = big_model(355000, "zeros")
    document["self_tests"] = []  # a model of zeros tags every word alike
    big = render(document)
    del document
    yield "a valid 95 MB model of JSON zeros", big
    yield "the 95 MB zeros model, 1e39 as its last value", big[: big.rfind("0]")] + "1e39]}}\n}\n"
    big = render(big_model(60000, "json"))
    embedding_end = big.find("]", embedding)
    yield "the 92 MB JSON model, a string after its word embedding's numbers", (
        big[:embedding_end] + ',"x"' + big[embedding_end:])


def rss_and_time(stderr):
    rss_kb, seconds, cpu, lines = 0, 0.0, 0.0, []
    for line in stderr.splitlines():
        stripped = line.strip()
        if stripped.startswith(("User time", "System time")):
            cpu += float(stripped.split(":")[1])
        if stripped.startswith("Maximum resident set size"):
            rss_kb = int(stripped.split(":")[1])
        elif stripped.startswith("Elapsed (wall clock) time"):
            clock = stripped.split("): ")[1].split(":")
            seconds = float(clock[-1]) + 60 * float(clock[-2])
        elif not stripped.startswith(("Command being timed", "User time", "System time",
                                      "Percent of CPU", "Average", "Major", "Minor",
                                      "Voluntary", "Involuntary", "Swaps", "File system",
                                      "Socket", "Signals", "Page size", "Exit status")) \
                and stripped:
            lines.append(stripped)
    return rss_kb, seconds, cpu, lines


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "build")
    wanted = sys.argv[2:]
    sawtag = os.path.join(build, "app", "sawtag")
    with tempfile.TemporaryDirectory() as work:
        print("| Case | File MB | Exit | Peak RSS MB | Seconds | CPU seconds | stderr |")
        print("|---|---|---|---|---|---|---|")
        for name, text in cases(work):
            if wanted and not any(w in name for w in wanted):
                continue
            path = os.path.join(work, "model.json")
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
            size = os.path.getsize(path)
            run = subprocess.run(["/usr/bin/time", "-v", sawtag, "-m", path],
                                 input=b"I saw a saw\n", capture_output=True)
            rss_kb, seconds, cpu, lines = rss_and_time(run.stderr.decode("utf-8", "replace"))
            said = lines[0] if lines else run.stdout.decode().strip()
            said = said.replace(path, "model.json").replace("|", "\\|")
            if len(said) > 110:
                said = said[:110] + "..."
            print("| %s | %.1f | %d | %.1f | %.2f | %.2f | %s |" % (
                name, size / 1e6, run.returncode, rss_kb / 1024, seconds, cpu, said), flush=True)
            os.remove(path)


if __name__ == "__main__":
    main()
