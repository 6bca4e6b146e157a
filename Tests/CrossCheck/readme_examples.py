#!/usr/bin/env python3
"""Runs every command of README.md's "Using the CLI" block as written, and checks it.

Each `.build/debug/imwire …` line runs (with the given binary) in a scratch directory that holds
a link to the repository's Fixtures/, so the files the examples write (report.html, nim.jsonl)
land there. A line's comment says what to expect: `exit N` is its exit status (0 otherwise), and
a comment that is one word without spaces (`080e2801`, `{"cmd":"echo","i":1}`) must appear in its
output. A file an example writes with `-o` must exist and not be empty afterwards.
Usage: Tests/CrossCheck/readme_examples.py [path/to/imwire]
"""
import os, re, shlex, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
imwire = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/imwire"))
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
block = re.search(r"## Using the CLI\n\n```sh\n(.*?)```", readme, re.S).group(1)
commands = [line for line in block.splitlines() if line.startswith(".build/debug/imwire ")]
problems = []
with tempfile.TemporaryDirectory() as work:
    os.symlink(os.path.join(root, "Fixtures"), os.path.join(work, "Fixtures"))
    for line in commands:
        command, _, comment = line.partition("  #")
        comment = comment.strip()
        words = shlex.split(command)
        words[0] = imwire
        run = subprocess.run(words, cwd=work, capture_output=True, text=True, timeout=300)
        status = re.search(r"\bexit (\d+)", comment)
        expected = int(status.group(1)) if status else 0
        if run.returncode != expected:
            problems.append(f"{command.strip()}: exit {run.returncode}, expected {expected}\n{run.stderr[-400:]}")
        if comment and " " not in comment and comment not in run.stdout:
            problems.append(f"{command.strip()}: output lacks {comment!r}: {run.stdout[:200]!r}")
        if "-o" in words:
            written = os.path.join(work, words[words.index("-o") + 1])
            if not os.path.exists(written) or os.path.getsize(written) == 0:
                problems.append(f"{command.strip()}: wrote nothing to {written}")
for problem in problems:
    print("FAIL", problem)
print(f"README examples {'FAILED' if problems else 'ok'}: {len(commands)} commands run as written")
sys.exit(1 if problems else 0)
