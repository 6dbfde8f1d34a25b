#!/usr/bin/python3
"""Builds mnemod's manual pages, in man(7), from Markdown.

    man/md2man.py            rewrite man/mnemod.8, man/mnemoctl.1, man/mnemod.yaml.5
    man/md2man.py --check    exit 1 (with a diff) when a page differs from its source

mnemod.yaml(5) is docs/configuration.md and mnemoctl(1) is docs/console.md, so
a page never says something its reference page does not; mnemod(8) has its own
source, man/mnemod.8.md. The pages are committed, so building and installing
mnemod needs no Markdown tool; ctest's man_pages_current fails when a source
changed and the pages were not rewritten.

Markdown understood (what those files use): "# " (dropped: the page has its
own NAME), "## " sections, "### " subsections, paragraphs, "- " lists with
indented continuation lines, fenced code blocks (also inside list items),
`code`, **bold**, *emphasis*, [text](target) links (the text is kept), and
HTML comments (dropped).
"""

import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Bump when the text of a page changes (the date man shows in the footer).
DATE = "2026-11-26"
SOURCE = "mnemod"

PAGES = [
    # (source, page name, section, one-line description)
    ("man/mnemod.8.md", "mnemod", 8, "session and memory daemon for AI agents"),
    ("docs/console.md", "mnemoctl", 1, "admin console of mnemod"),
    ("docs/configuration.md", "mnemod.yaml", 5, "configuration file of mnemod"),
]
SEE_ALSO = {
    "mnemod": "mnemoctl(1), mnemod.yaml(5)",
    "mnemoctl": "mnemod(8), mnemod.yaml(5)",
    "mnemod.yaml": "mnemod(8), mnemoctl(1)",
}


def escape(text):
    """Escapes roff's special characters in running text."""
    return text.replace("\\", "\\e")


def code_text(text):
    """Literal text: hyphens stay ASCII minus so commands copy right."""
    return escape(text).replace("-", "\\-")


def inline(text):
    """Markdown inline markup to roff font changes."""
    out = []
    pos = 0
    pattern = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)]+)\)")
    for match in pattern.finditer(text):
        out.append(escape(text[pos:match.start()]))
        code, bold, emphasis, link_text, _target = match.groups()
        if code is not None:
            out.append("\\fB" + code_text(code) + "\\fR")
        elif bold is not None:
            out.append("\\fB" + escape(bold) + "\\fR")
        elif emphasis is not None:
            out.append("\\fI" + escape(emphasis) + "\\fR")
        else:
            out.append(inline(link_text))
        pos = match.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def text_line(line):
    """A line of running text; a leading . or ' would be a request."""
    line = inline(line.strip())
    return "\\&" + line if line.startswith((".", "'")) else line


def literal_line(line):
    line = code_text(line)
    return "\\&" + line if line.startswith((".", "'")) or line == "" else line


def convert(markdown, name, section, description):
    lines = markdown.splitlines()
    out = [f'.TH "{name.upper()}" "{section}" "{DATE}" "{SOURCE}" "{SOURCE}"',
           ".SH NAME", f"{name} \\- {description}"]
    i = 0
    in_comment = False
    started = False  # the text before the first "## " goes under DESCRIPTION
    paragraph_open = False
    in_list = False  # inside a "- " item, whose paragraphs and blocks are indented
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            i += 1
            continue
        if line.startswith("# "):
            i += 1
            continue
        if line.startswith("## "):
            out.append(".SH " + inline(line[3:].strip().upper()))
            started, paragraph_open, in_list = True, False, False
            i += 1
            continue
        if line.startswith("### "):
            out.append(".SS " + inline(line[4:].strip()))
            paragraph_open = in_list = False
            i += 1
            continue
        if not started and stripped:
            out.append(".SH DESCRIPTION")
            started = True
        fence = re.match(r"^(\s*)```", line)
        if fence:
            indent = len(fence.group(1))
            i += 1
            if indent > 0:
                out.append(".sp")  # a block inside a list item keeps the item's indent
            elif not out[-1].startswith((".SH", ".SS")):
                out.append(".PP")
            out.extend([".RS 4", ".nf"])
            while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
                out.append(literal_line(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i]))
                i += 1
            out.extend([".fi", ".RE"])
            paragraph_open = False
            i += 1
            continue
        if stripped == "":
            paragraph_open = False
            i += 1
            continue
        in_list = line.startswith(("- ", "  ")) and (in_list or line.startswith("- "))
        if line.startswith("- "):
            out.extend(['.IP "\\(bu" 2', text_line(line[2:])])
            paragraph_open = True
            i += 1
            continue
        if line.startswith("  ") and out[-1] != ".PP" and paragraph_open:
            out.append(text_line(line))
            i += 1
            continue
        if line.startswith("  ") and not paragraph_open and in_list:
            out.extend([".IP \"\" 2", text_line(line)])  # a list item's second paragraph
            paragraph_open = True
            i += 1
            continue
        if not paragraph_open:
            if not out[-1].startswith((".SH", ".SS")):
                out.append(".PP")
            paragraph_open = True
        out.append(text_line(line))
        i += 1
    out.extend([".SH SEE ALSO", escape(SEE_ALSO[name])])
    return "\n".join(out) + "\n"


def main(argv):
    check = argv == ["--check"]
    if argv and not check:
        sys.exit(__doc__)
    stale = 0
    for source, name, section, description in PAGES:
        page = convert((ROOT / source).read_text(encoding="utf-8"), name, section, description)
        target = ROOT / "man" / f"{name}.{section}"
        if not check:
            target.write_text(page, encoding="utf-8")
            continue
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != page:
            stale += 1
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), page.splitlines(True),
                                                       str(target), f"{target} from {source}"))
    if stale:
        print(f"\n{stale} manual page(s) differ from their source: run man/md2man.py and commit man/", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
