"""Hugging Face tokenizers' (Rust) encode throughput for frontend/tokenizer's
BenchmarkEncode: trains the same BPE as the Go side loads, then times
encoding the same text. Job (JSON) on stdin, results (JSON) on stdout."""
import json
import os
import statistics
import sys
import time

from tokenizers import ByteLevelBPETokenizer, Tokenizer

job = json.load(sys.stdin)
bpe = ByteLevelBPETokenizer()
bpe.train(job["train_files"], vocab_size=job["vocab_size"], min_frequency=2,
          special_tokens=["<|endoftext|>"], show_progress=False)
path = os.path.join(job["out_dir"], "tokenizer.json")
bpe.save(path)
tok = Tokenizer.from_file(path)
text, lines = job["text"], job["text"].split("\n")
nbytes = len(text.encode())

def median_mbps(f, reps=7):
    f()  # warm the cache, as the Go side's b.N loop does
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return nbytes / statistics.median(times) / 1e6

res = {
    "encode_mbps": median_mbps(lambda: tok.encode(text, add_special_tokens=False)),
    "encode_batch_mbps": median_mbps(lambda: tok.encode_batch(lines, add_special_tokens=False)),
    "tokens": len(tok.encode(text, add_special_tokens=False).ids),
}
json.dump(res, sys.stdout)
