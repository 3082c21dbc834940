#!/usr/bin/env python3
"""Documentation links stay inside the repository and resolve.

Usage: check-links.py ROOT
Every relative link [text](path) or [text](path#anchor) of a tracked Markdown file must name an
existing file or directory of the repository, an anchor into a Markdown file one of its headings (as GitHub
makes them: lower case, punctuation dropped, spaces as hyphens, -1, -2 for repeats; or an <a id>), and no tracked text file may point to the
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
anchors_of = {}


def anchors(md):
    """The anchors GitHub gives the headings of Markdown file `md` (code blocks skipped)."""
    if md not in anchors_of:
        seen = {}
        found = set()
        fenced = False
        for line in md.read_text(encoding="utf-8").splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            found.update(re.findall(r'<a id="([^"]+)">', line))  # explicit anchors
            m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
        anchors_of[md] = found
    return anchors_of[md]


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
            if re.match(r"^[a-z]+:", target):
                continue  # URLs
            target, _, anchor = target.partition("#")
            checked += 1
            resolved = (path.parent / target).resolve() if target else path.resolve()
            if not resolved.exists() or root not in resolved.parents and resolved != root:
                problems.append(f"{name}:{lineno}: link to '{target}' does not resolve inside the repository")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                problems.append(f"{name}:{lineno}: link to '{target}#{anchor}': no such heading in {resolved.relative_to(root)}")
for p in problems:
    print(p)
print(f"check-links: {checked} relative links checked, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
