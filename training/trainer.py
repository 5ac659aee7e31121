"""What the judge's training (train_nli, adapt_dev) and the question-passage model's (train_qa) share:
the batches' order, the pairs' tokenisation, the optimiser and its schedule, the resumable loop with
its checkpoints, and prediction in batches. Needs torch and transformers only: a GPU machine has
nothing else.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from pathlib import Path

import torch
from transformers import BatchEncoding, get_linear_schedule_with_warmup

from training.model import CrossEncoderModel

# Training runs on a GPU where torch sees one (a CUDA build of torch), in bfloat16 autocast, else on
# the CPU in float32.
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
AUTOCAST = torch.autocast(DEVICE.type, dtype=torch.bfloat16, enabled=DEVICE.type == "cuda")

# The loss of a batch's logits against its rows' labels.
Loss = Callable[[torch.Tensor, list[dict]], torch.Tensor]


def encode_pairs(
    tokenizer, rows: list[dict], max_len: int, truncation: str = "longest_first"
) -> BatchEncoding:
    """The rows' (premise, hypothesis) pairs as the model reads them, padded to the longest."""
    return tokenizer(
        [r["premise"] for r in rows],
        [r["hypothesis"] for r in rows],
        truncation=truncation,
        max_length=max_len,
        padding=True,
        return_tensors="pt",
    )


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


def plan_batches(rows: list[dict], batch_size: int, epochs: float, seed: int) -> list[list[dict]]:
    """`epochs` passes over the rows (a fraction cuts the last one short), each in its own order."""
    plan: list[list[dict]] = []
    for epoch in range(math.ceil(epochs)):
        plan.extend(batches(rows, batch_size, seed + epoch))
    return plan[: int(len(rows) * epochs / batch_size)]


class Trainer:
    """AdamW with linear warm-up and decay over `steps` batches, on DEVICE; one call to step() per
    batch, or run() over a whole plan with checkpoints."""

    def __init__(
        self,
        model: CrossEncoderModel,
        tokenizer,
        lr: float,
        steps: int,
        max_len: int,
        loss: Loss,
        truncation: str = "longest_first",
        train_embeddings: bool = False,
    ) -> None:
        self.model, self.tokenizer, self.max_len = model.to(DEVICE), tokenizer, max_len
        self.loss, self.truncation = loss, truncation
        # The word-embedding matrix is half the parameters; freezing it makes a CPU step much cheaper.
        model.encoder.embeddings.word_embeddings.weight.requires_grad_(train_embeddings)
        self.trainable = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(self.trainable, lr=lr, weight_decay=0.01)
        self.scheduler = get_linear_schedule_with_warmup(self.optimizer, int(0.06 * steps), steps)

    def step(self, batch: list[dict]) -> float:
        enc = encode_pairs(self.tokenizer, batch, self.max_len, self.truncation).to(DEVICE)
        with AUTOCAST:
            logits = self.model(**enc)
        loss = self.loss(logits.float(), batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.trainable, 1.0)
        self.optimizer.step()
        self.scheduler.step()
        self.optimizer.zero_grad()
        return loss.item()

    def resume(self, state_file: Path) -> int:
        """The step the checkpoint in `state_file` stopped at, its model, optimiser and schedule
        restored; 0 without one."""
        if not state_file.exists():
            return 0
        state = torch.load(state_file, map_location=DEVICE, weights_only=False)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.scheduler.load_state_dict(state["scheduler"])
        print(f"resumed at step {state['step']}", flush=True)
        return state["step"]

    def save(self, state_file: Path, step: int, args: argparse.Namespace) -> None:
        """The checkpoint resume() reads, written whole or not at all."""
        state_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = state_file.with_suffix(".tmp")
        torch.save(
            {
                "model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "scheduler": self.scheduler.state_dict(),
                "step": step,
                "args": vars(args),
            },
            tmp,
        )
        tmp.replace(state_file)

    def run(
        self, plan: list[list[dict]], state_file: Path, save_every: int, args: argparse.Namespace
    ) -> None:
        """Train on the plan's batches from where the checkpoint in `state_file` stopped, writing one
        every `save_every` steps and after the last; the loss and the pace every 10 steps."""
        step = self.resume(state_file)
        self.model.train()
        started, first_step, recent = time.time(), step, []
        while step < len(plan):
            recent = (recent + [self.step(plan[step])])[-20:]
            step += 1
            if step % 10 == 0:
                rate = (step - first_step) / max(time.time() - started, 1e-6)
                loss_avg = sum(recent) / len(recent)
                print(f"step {step}/{len(plan)} loss {loss_avg:.3f} {rate:.2f} steps/s", flush=True)
            if step % save_every == 0 or step == len(plan):
                self.save(state_file, step, args)


@torch.no_grad()
def predict_logits(
    model: CrossEncoderModel,
    tokenizer,
    rows: list[dict],
    max_len: int,
    truncation: str = "longest_first",
    batch: int = 64,
) -> torch.Tensor:
    """The model's logits for the rows' pairs, `batch` pairs at a time, back on the CPU."""
    model.eval()
    device = next(model.parameters()).device
    return torch.cat(
        [
            model(**encode_pairs(tokenizer, rows[i : i + batch], max_len, truncation).to(device)).cpu()
            for i in range(0, len(rows), batch)
        ]
    )
