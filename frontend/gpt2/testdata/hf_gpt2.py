"""Hugging Face oracle for frontend/gpt2's tests.

hf_gpt2.py make DIR SPEC.json OUT.json

Builds a GPT2LMHeadModel from a random GPT2Config (SPEC's "config"), adds
small noise to every parameter (so biases and layer-norm shifts are not
zero and a dropped one shows), saves it into DIR with
save_pretrained(safe_serialization=True), and writes to OUT what
transformers computes on it: the logits on SPEC's "ids" (all one length),
greedy generation (model.generate(do_sample=False)) of SPEC's "new" tokens
from each prompt of SPEC's "prompts" alone, and of all of them as one
left-padded batch.

hf_gpt2.py logits DIR SPEC.json OUT.json

Loads DIR (a model Stela saved) and writes the logits on SPEC's "ids".

Exit status 3: torch or transformers is not importable.
"""
import json
import sys

try:
    import torch
    import transformers
    from transformers import GPT2Config, GPT2LMHeadModel
except Exception as e:  # noqa: BLE001
    print(f"cannot import torch/transformers: {e}", file=sys.stderr)
    sys.exit(3)


def logits(model, ids):
    with torch.no_grad():
        return model(torch.tensor(ids)).logits.float().tolist()


def main():
    mode, d, spec_path, out_path = sys.argv[1:5]
    spec = json.load(open(spec_path))
    out = {"transformers": transformers.__version__, "torch": torch.__version__}
    if mode == "make":
        torch.manual_seed(spec.get("seed", 0))
        tok = None
        if spec.get("tokenizer"):
            # A byte-level BPE trained on local text, saved with the model;
            # the model's vocabulary is the tokenizer's.
            from tokenizers import ByteLevelBPETokenizer
            from transformers import GPT2TokenizerFast
            bpe = ByteLevelBPETokenizer()
            bpe.train(spec["tokenizer"]["train_files"], vocab_size=spec["tokenizer"]["vocab_size"],
                      min_frequency=2, special_tokens=["<|endoftext|>"], show_progress=False)
            import os
            os.makedirs(d, exist_ok=True)
            bpe.save(os.path.join(d, "tokenizer.json"))
            tok = GPT2TokenizerFast(tokenizer_file=os.path.join(d, "tokenizer.json"))
            eos = tok.convert_tokens_to_ids("<|endoftext|>")
            spec["config"].update(vocab_size=len(tok), bos_token_id=eos, eos_token_id=eos)
        cfg = GPT2Config(**spec["config"])
        model = GPT2LMHeadModel(cfg).eval()
        with torch.no_grad():
            for p in model.parameters():
                p.add_(0.02 * torch.randn_like(p))
        model.save_pretrained(d, safe_serialization=True)
        new = spec["new"]
        if spec.get("ids"):
            out["logits"] = logits(model, spec["ids"])
        if spec.get("prompts"):
            gen = []
            for p in spec["prompts"]:
                ids = torch.tensor([p])
                g = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                                   max_new_tokens=new, min_new_tokens=0, pad_token_id=cfg.eos_token_id)
                gen.append(g[0, len(p):].tolist())
            out["greedy"] = gen
            s = max(len(p) for p in spec["prompts"])
            pad = cfg.eos_token_id
            ids = torch.tensor([[pad] * (s - len(p)) + p for p in spec["prompts"]])
            mask = torch.tensor([[0] * (s - len(p)) + [1] * len(p) for p in spec["prompts"]])
            g = model.generate(ids, attention_mask=mask, do_sample=False, max_new_tokens=new,
                               min_new_tokens=0, pad_token_id=pad)
            out["batch"] = g[:, s:].tolist()
            # Logits of the left-padded batch, at the real positions.
            with torch.no_grad():
                pos = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 1)
                lb = model(ids, attention_mask=mask, position_ids=pos).logits
            out["batch_logits"] = [lb[i, s - len(p):].tolist() for i, p in enumerate(spec["prompts"])]
        if tok is not None:
            ids = tok(spec["text"], return_tensors="pt")["input_ids"]
            g = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                               max_new_tokens=new, min_new_tokens=0, pad_token_id=cfg.eos_token_id)
            out["text_ids"] = ids[0].tolist()
            out["text_greedy"] = g[0, ids.shape[1]:].tolist()
            out["text_decoded"] = tok.decode(out["text_greedy"], skip_special_tokens=True)
    elif mode == "logits":
        model = GPT2LMHeadModel.from_pretrained(d).eval()
        out["logits"] = logits(model, spec["ids"])
    else:
        raise SystemExit(f"unknown mode {mode}")
    json.dump(out, open(out_path, "w"))


main()
