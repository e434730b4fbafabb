"""Hugging Face tokenizers' (Rust) encode throughput for frontend/tokenizer's
BenchmarkEncode: trains the same BPE that the Go side then loads, and times
encoding the same text whenever asked, so that the two are measured side
by side. Reads a job (JSON) as the first line of stdin and writes one JSON
line; then, for each line "encode" or "batch" it reads, writes the median
MB/s of wall time and of the process's CPU time of 5 timed runs (after a warm-up run) of tok.encode(text) (one
thread) or tok.encode_batch(lines) (all cores)."""
import json
import os
import statistics
import sys
import time

from tokenizers import ByteLevelBPETokenizer, Tokenizer

job = json.loads(sys.stdin.readline())
bpe = ByteLevelBPETokenizer()
bpe.train(job["train_files"], vocab_size=job["vocab_size"], min_frequency=2,
          special_tokens=["<|endoftext|>"], show_progress=False)
path = os.path.join(job["out_dir"], "tokenizer.json")
bpe.save(path)
tok = Tokenizer.from_file(path)
text = job["text"]
lines = text.split("\n")
nbytes = len(text.encode())
print(json.dumps({"tokens": len(tok.encode(text, add_special_tokens=False).ids)}), flush=True)

runs = {
    "encode": lambda: tok.encode(text, add_special_tokens=False),
    "batch": lambda: tok.encode_batch(lines, add_special_tokens=False),
}
for cmd in sys.stdin:
    f = runs[cmd.strip()]
    f()
    times, cpu = [], []
    for _ in range(5):
        t0, c0 = time.perf_counter(), time.process_time()
        f()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    print(nbytes / statistics.median(times) / 1e6, nbytes / statistics.median(cpu) / 1e6, flush=True)
