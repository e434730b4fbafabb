"""The Hugging Face side of frontend/tokenizer's cross-checks (hf_test.go).

Reads a job (JSON) on stdin, writes results (JSON) to out_dir/result.json
(stdout is left to the libraries' messages):
  train: ByteLevelBPETokenizer trained on job["train_files"], saved as
         tokenizer.json, vocab.json and merges.txt in job["out_dir"], plus
         variants (added tokens with lstrip/rstrip/single_word, prefix space,
         ignore_merges) as tokenizer-<name>.json;
  ids of job["lines"] and job["full_text"] by tokenizers, by
         transformers' GPT2TokenizerFast and GPT2Tokenizer (from
         vocab.json/merges.txt), and their decodes;
  decodes of job["id_lists"] (arbitrary ids, cut characters included);
  splits of job["split_strings"] by the `regex` module with GPT-2's pattern
         and by tokenizers' ByteLevel pre-tokenizer (as byte offsets).
"""
import json
import os
import sys

import regex
from tokenizers import AddedToken, ByteLevelBPETokenizer, Tokenizer, pre_tokenizers
from transformers import GPT2Tokenizer, GPT2TokenizerFast

job = json.load(sys.stdin)
out_dir = job["out_dir"]
res = {}

bpe = ByteLevelBPETokenizer()
bpe.train(job["train_files"], vocab_size=job["vocab_size"], min_frequency=2,
          special_tokens=["<|endoftext|>"], show_progress=False)
bpe.save(os.path.join(out_dir, "tokenizer.json"))
bpe.save_model(out_dir)

tok = Tokenizer.from_file(os.path.join(out_dir, "tokenizer.json"))
lines = job["lines"]
res["tokenizers"] = [e.ids for e in tok.encode_batch(lines, add_special_tokens=False)]
res["tokenizers_decoded"] = tok.decode_batch(res["tokenizers"], skip_special_tokens=False)
res["full"] = tok.encode(job["full_text"], add_special_tokens=False).ids
res["id_lists_decoded"] = tok.decode_batch(job["id_lists"], skip_special_tokens=False)
res["id_lists_decoded_skip"] = tok.decode_batch(job["id_lists"], skip_special_tokens=True)
res["vocab_size"] = tok.get_vocab_size(with_added_tokens=True)

vocab, merges = os.path.join(out_dir, "vocab.json"), os.path.join(out_dir, "merges.txt")
fast = GPT2TokenizerFast(vocab_file=vocab, merges_file=merges)
res["fast"] = fast(lines, add_special_tokens=False)["input_ids"]
slow = GPT2Tokenizer(vocab_file=vocab, merges_file=merges)
n = job["slow_lines"]
res["slow"] = [slow.encode(l) for l in lines[:n]]
res["slow_decoded"] = [slow.decode(ids, clean_up_tokenization_spaces=False) for ids in res["slow"]]
res["slow_id_lists_decoded"] = [slow.decode(ids, clean_up_tokenization_spaces=False) for ids in job["id_lists"]]

# The directories transformers writes (save_pretrained): the fast
# tokenizer's has tokenizer.json, the slow one's vocab.json and merges.txt;
# both have tokenizer_config.json and special_tokens_map.json.
fast.save_pretrained(os.path.join(out_dir, "fast"))
slow.save_pretrained(os.path.join(out_dir, "slow"))
res["fast_variant_lines"] = fast(job["variant_lines"], add_special_tokens=False)["input_ids"]
res["eos_token_id"] = fast.eos_token_id

# Variants of the pipeline, each saved for the Go side and its ids returned.
variants = {}
def variant(name, t, texts):
    t.save(os.path.join(out_dir, "tokenizer-%s.json" % name))
    variants[name] = [e.ids for e in t.encode_batch(texts, add_special_tokens=False)]

vt = job["variant_lines"]
t = Tokenizer.from_file(os.path.join(out_dir, "tokenizer.json"))
t.add_special_tokens([AddedToken("<mask>", lstrip=True), AddedToken("<sep>", rstrip=True)])
t.add_tokens([AddedToken("func", single_word=True), AddedToken("return nil", normalized=False),
              AddedToken("ret"), AddedToken("if err"), AddedToken("err !=", normalized=False)])
variant("added", t, vt)
t = Tokenizer.from_file(os.path.join(out_dir, "tokenizer.json"))
t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
variant("prefix", t, vt)
spec = json.loads(Tokenizer.from_file(os.path.join(out_dir, "tokenizer.json")).to_str())
spec["model"]["ignore_merges"] = True
variant("ignore_merges", Tokenizer.from_str(json.dumps(spec)), vt)
spec["model"]["ignore_merges"] = False
spec["pre_tokenizer"]["use_regex"] = False
variant("no_regex", Tokenizer.from_str(json.dumps(spec)), vt)
# Without the byte tokens of 'q', 'z' and 0xC3 (written 'Ã', U+00C3, and
# every token and merge that holds them): unknown symbols become <unk>
# (fused), or with byte fallback the <0xXX> of their runes' UTF-8 bytes
# (<0x71>, <0x7A>, <0xC3><0x83>).
spec = json.loads(Tokenizer.from_file(os.path.join(out_dir, "tokenizer.json")).to_str())
m = spec["model"]
gone = lambda s: "q" in s or "z" in s or "\u00c3" in s
m["vocab"] = {k: v for k, v in m["vocab"].items() if not gone(k)}
m["merges"] = [x for x in m["merges"] if not gone(x)]
top = max(m["vocab"].values())
m["vocab"]["<unk>"] = top + 1
m["unk_token"] = "<unk>"
variant("unk", Tokenizer.from_str(json.dumps(spec)), vt)
m["fuse_unk"] = True
variant("fuse_unk", Tokenizer.from_str(json.dumps(spec)), vt)
m["vocab"]["<0x71>"] = top + 2
m["vocab"]["<0x7A>"] = top + 3
m["vocab"]["<0xC3>"] = top + 4
m["vocab"]["<0x83>"] = top + 5
m["byte_fallback"] = True
variant("byte_fallback", Tokenizer.from_str(json.dumps(spec)), vt)
m["unk_token"] = None
del m["vocab"]["<0x7A>"]
variant("drop", Tokenizer.from_str(json.dumps(spec)), vt)
res["variants"] = variants

pat = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
res["split_regex"] = [[len(p.encode()) for p in pat.findall(s)] for s in job["split_strings"]]
bl = pre_tokenizers.ByteLevel(add_prefix_space=False)
def hf_split(s):
    # pre_tokenize_str gives offsets in characters; return piece lengths in bytes.
    return [len(s[a:b].encode()) for _, (a, b) in bl.pre_tokenize_str(s)]
res["split_hf"] = [hf_split(s) for s in job["split_strings"]]

with open(os.path.join(out_dir, "result.json"), "w") as f:
    json.dump(res, f)
