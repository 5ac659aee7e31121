"""Fine-tune all-MiniLM-L6-v2 as a 3-way entailment cross-encoder (evidence, claim) on CPU.

Seeded and resumable: the sample and its order depend only on --seed, and a checkpoint (model,
optimizer, scheduler, step) is written every --save-every steps, so a later session continues
where this one stopped. Labels: 0 entailment, 1 neutral, 2 contradiction. Two-label sources
(`not_entailment`) train with a partial-label loss: the probability mass of {neutral, contradiction}.

    nice -n 10 python training/train_nli.py --out training/checkpoints/nli
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import torch
from transformers import AutoTokenizer

from training.data import EVAL_DIR, LABEL_MASKS, load_mix, read_jsonl
from training.model import BASE_MODEL_DIR, CrossEncoderModel
from training.trainer import Trainer, plan_batches

DEFAULT_MIX = {
    # file (under shared/train) -> rows sampled; caption-style SNLI kept small on purpose.
    "fever_nli.jsonl": 9000,
    "mnli.jsonl": 7000,
    "snli.jsonl": 3000,
    "cad_snli.jsonl": 1500,
    "conjnli_adv_synthetic.jsonl": 2000,
    "conjnli.jsonl": 600,
    "contract_nli.jsonl": 2000,
    "breaking_nli.jsonl": 1000,
    "ambient.jsonl": 1200,
    "folio.jsonl": 500,
    "binary/scitail.jsonl": 3400,
    "binary/med.jsonl": 1000,
    "binary/mnli_binary.jsonl": 2000,
}


def partial_label_loss(logits: torch.Tensor, batch: list[dict]) -> torch.Tensor:
    """-log of the probability mass on each row's allowed labels (one label for 3-way rows)."""
    masks = torch.tensor([LABEL_MASKS[r["label"]] for r in batch], device=logits.device)
    logp = torch.log_softmax(logits, dim=-1)
    allowed = logp.masked_fill(~masks, float("-inf"))
    return -torch.logsumexp(allowed, dim=-1).mean()


def synthetic_rows(
    rows: list[dict], near_misses: int, context_pairs: int, seed: int, hard: int = 0, structure: int = 0
) -> list[dict]:
    """About `near_misses` near-miss pairs made from `rows`, then about `context_pairs` minimal pairs
    made from the dev contexts' sentences (their wording, never their labels), then about `hard`
    edited entailment pairs and about `structure` premise sentences edited in their structure
    (training/hard_pairs/)."""
    # Imported here: they need rrag's text tools and spaCy, which a GPU machine given these pairs
    # ready-made lacks.
    from training import hard_pairs, synthetic

    out = synthetic.near_misses(rows, near_misses, random.Random(seed))
    if context_pairs:
        contexts = [r["context"] for path in sorted(EVAL_DIR.glob("*.jsonl")) for r in read_jsonl(path)]
        out += synthetic.context_minimal_pairs(contexts, context_pairs, random.Random(seed))
    if hard:
        out += hard_pairs.cached(hard, seed)
    if structure:
        out += hard_pairs.cached(structure, seed, structure=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("training/checkpoints/nli"))
    ap.add_argument("--init", type=Path, default=BASE_MODEL_DIR, help="a state.pt to start from")
    ap.add_argument("--mix", type=Path, help="JSON {file: rows}; default DEFAULT_MIX")
    ap.add_argument("--extra", type=Path, action="append", default=[], help="extra JSONL pairs")
    ap.add_argument(
        "--near-misses",
        type=int,
        default=0,
        help="add about this many synthetic near-miss pairs made from the mix (synthetic.near_misses)",
    )
    ap.add_argument(
        "--context-pairs",
        type=int,
        default=0,
        help="add about this many minimal pairs made from the dev contexts' sentences "
        "(synthetic.context_minimal_pairs; the contexts' wording only, never their labels)",
    )
    ap.add_argument(
        "--hard-pairs",
        type=int,
        default=0,
        help="add about this many edited entailment pairs (training/hard_pairs.py: swapped roles, "
        "changed values, dropped conditions, paraphrases ...)",
    )
    ap.add_argument(
        "--structure-pairs",
        type=int,
        default=0,
        help="add about this many premise sentences with roles exchanged or a modifier's noun made the "
        "subject, each beside its passive or its shorter form (training/hard_pairs/)",
    )
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=8e-5)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--save-every", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--train-embeddings", action="store_true", help="also train the word embeddings (cheap on a GPU)"
    )
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    mix = json.loads(args.mix.read_text()) if args.mix else DEFAULT_MIX
    rows = load_mix(mix, args.seed, extra=args.extra)
    if args.near_misses or args.context_pairs or args.hard_pairs or args.structure_pairs:
        rows += synthetic_rows(
            rows, args.near_misses, args.context_pairs, args.seed, args.hard_pairs, args.structure_pairs
        )
    plan = plan_batches(rows, args.batch, args.epochs, args.seed)
    print(f"{len(rows)} rows, {len(plan)} steps", flush=True)

    tokenizer = AutoTokenizer.from_pretrained(BASE_MODEL_DIR)
    model = CrossEncoderModel(BASE_MODEL_DIR)
    if args.init != BASE_MODEL_DIR:
        model.load_state_dict(torch.load(args.init, map_location="cpu", weights_only=False)["model"])
    trainer = Trainer(
        model,
        tokenizer,
        args.lr,
        len(plan),
        args.max_len,
        partial_label_loss,
        train_embeddings=args.train_embeddings,
    )
    trainer.run(plan, args.out / "state.pt", args.save_every, args)
    print("done", flush=True)


if __name__ == "__main__":
    main()
