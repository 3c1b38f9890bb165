# Writes a sawtag model's word rows (int8 rows times their scales) as a word2vec/fastText .vec text
# file, <unk> left out: python3 scripts/model_vectors.py MODEL.json OUT.vec
import json, base64, struct, sys
m = json.load(open(sys.argv[1]))
t = m["tensors"]["encoder.word_embedding"]
R, C = t["shape"]
q = base64.b64decode(t["data"][len("base64:"):])
s = struct.unpack("<%df" % R, base64.b64decode(t["scales"][len("base64:"):]))
words = m["vocabularies"]["words"]
with open(sys.argv[2], "w") as out:
    out.write("%d %d\n" % (R - 1, C))
    for r in range(R):
        if words[r] == "<unk>": continue
        row = q[r*C:(r+1)*C]
        out.write(words[r] + " " + " ".join("%.5g" % (s[r] * (b - 256 if b > 127 else b)) for b in row) + "\n")
