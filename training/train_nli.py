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
import math
import random
import time
from pathlib import Path

import torch
from transformers import AutoTokenizer, get_linear_schedule_with_warmup

from training.data import BASE_MODEL_DIR, EVAL_DIR, LABEL_MASKS, load_mix, read_jsonl
from training.model import CrossEncoderModel

# Training runs on a GPU where torch sees one (a CUDA build of torch), in bfloat16 autocast, else on
# the CPU in float32.
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
AUTOCAST = torch.autocast(DEVICE.type, dtype=torch.bfloat16, enabled=DEVICE.type == "cuda")

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


def partial_label_loss(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """-log of the probability mass on the allowed labels (one label for 3-way rows)."""
    logp = torch.log_softmax(logits, dim=-1)
    allowed = logp.masked_fill(~masks, float("-inf"))
    return -torch.logsumexp(allowed, dim=-1).mean()


def batches(rows: list[dict], batch_size: int, seed: int) -> list[list[dict]]:
    """Shuffle, then sort within pools of 50 batches by length so padding stays small."""
    rng = random.Random(seed)
    order = rows[:]
    rng.shuffle(order)
    pool = batch_size * 50
    out: list[list[dict]] = []
    for i in range(0, len(order), pool):
        chunk = sorted(order[i : i + pool], key=lambda r: len(r["premise"]) + len(r["hypothesis"]))
        out.extend(chunk[j : j + batch_size] for j in range(0, len(chunk), batch_size))
    rng.shuffle(out)
    return out


class Trainer:
    """AdamW with linear warm-up and decay over `steps` batches; one call to step() per batch."""

    def __init__(
        self,
        model: CrossEncoderModel,
        tokenizer,
        lr: float,
        steps: int,
        max_len: int,
        train_embeddings: bool = False,
    ) -> None:
        self.model, self.tokenizer, self.max_len = model, tokenizer, max_len
        # The word-embedding matrix is half the parameters; freezing it makes a CPU step much cheaper.
        model.encoder.embeddings.word_embeddings.weight.requires_grad_(train_embeddings)
        self.trainable = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(self.trainable, lr=lr, weight_decay=0.01)
        self.scheduler = get_linear_schedule_with_warmup(self.optimizer, int(0.06 * steps), steps)

    def step(self, batch: list[dict]) -> float:
        enc = self.tokenizer(
            [r["premise"] for r in batch],
            [r["hypothesis"] for r in batch],
            truncation="longest_first",
            max_length=self.max_len,
            padding=True,
            return_tensors="pt",
        ).to(DEVICE)
        masks = torch.tensor([LABEL_MASKS[r["label"]] for r in batch], device=DEVICE)
        with AUTOCAST:
            logits = self.model(**enc)
        loss = partial_label_loss(logits.float(), masks)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.trainable, 1.0)
        self.optimizer.step()
        self.scheduler.step()
        self.optimizer.zero_grad()
        return loss.item()


def plan_batches(rows: list[dict], batch_size: int, epochs: float, seed: int) -> list[list[dict]]:
    """`epochs` passes over the rows (a fraction cuts the last one short), each in its own order."""
    plan: list[list[dict]] = []
    for epoch in range(math.ceil(epochs)):
        plan.extend(batches(rows, batch_size, seed + epoch))
    return plan[: int(len(rows) * epochs / batch_size)]


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

    args.out.mkdir(parents=True, exist_ok=True)
    state_file = args.out / "state.pt"
    tokenizer = AutoTokenizer.from_pretrained(BASE_MODEL_DIR)
    model = CrossEncoderModel(BASE_MODEL_DIR)
    if args.init != BASE_MODEL_DIR:
        model.load_state_dict(torch.load(args.init, map_location="cpu", weights_only=False)["model"])
    model.to(DEVICE)
    trainer = Trainer(model, tokenizer, args.lr, len(plan), args.max_len, args.train_embeddings)
    optimizer, scheduler = trainer.optimizer, trainer.scheduler
    step = 0
    if state_file.exists():
        state = torch.load(state_file, map_location=DEVICE, weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        step = state["step"]
        print(f"resumed at step {step}", flush=True)

    def save() -> None:
        tmp = state_file.with_suffix(".tmp")
        torch.save(
            {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "step": step,
                "args": vars(args),
            },
            tmp,
        )
        tmp.replace(state_file)

    model.train()
    started, first_step, recent = time.time(), step, []
    while step < len(plan):
        loss = trainer.step(plan[step])
        step += 1
        recent = (recent + [loss])[-20:]
        if step % 10 == 0:
            rate = (step - first_step) / max(time.time() - started, 1e-6)
            loss_avg = sum(recent) / len(recent)
            print(f"step {step}/{len(plan)} loss {loss_avg:.3f} {rate:.2f} steps/s", flush=True)
        if step % args.save_every == 0 or step == len(plan):
            save()
    print("done", flush=True)


if __name__ == "__main__":
    main()
