#!/usr/bin/env python3
"""Documentation links stay inside the repository and resolve.

Usage: check-links.py ROOT
Every relative link [text](path) or [text](path#anchor) of a tracked Markdown file must name an
existing file or directory of the repository, and no tracked text file may point to the
development workspace's shared folder outside the repository (shared/docs, ../shared).
Exits 1 listing every offending file:line.
"""
import re
import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1]).resolve()
files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout.split()
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
outside = re.compile(r"(?<![\w/])(\.\./shared/|shared/docs/)")
problems = []
checked = 0
for name in files:
    path = root / name
    if not path.is_file() or path.suffix in {".gz", ".png", ".txt", ".xml", ".csv"}:
        continue
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        continue
    for lineno, line in enumerate(text.splitlines(), 1):
        if outside.search(line) and name != "tests/readme/check-links.py":
            problems.append(f"{name}:{lineno}: points outside the repository: {line.strip()}")
        if path.suffix != ".md":
            continue
        for target in link.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # URLs and anchors within the page
            target = target.split("#", 1)[0]
            checked += 1
            resolved = (path.parent / target).resolve()
            if not resolved.exists() or root not in resolved.parents and resolved != root:
                problems.append(f"{name}:{lineno}: link to '{target}' does not resolve inside the repository")
for p in problems:
    print(p)
print(f"check-links: {checked} relative links checked, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
