#!/usr/bin/env python3
"""Moves the types that made the top-level packages under dev.docapi one cycle (issue 41 item 3) to packages every
user can see, and rewrites the sources that use them. Run from anywhere inside the repository:

    python3 scripts/dev/untangle-packages.py            # move and rewrite
    python3 scripts/dev/untangle-packages.py --check    # say what it would change, change nothing (exit 1 if anything)

What it does, for each move in MOVES (old name -> new name):
  1. `git mv` of the source file (a file already at its new place is left as it is);
  2. the moved file's package line, and imports for the types of its old package it used without one (a type it
     names only in a Javadoc link is written out in full there instead, so no import points back up);
  3. in every Java file of src/main/java and src/test/java: the old qualified name (imports, static imports, qualified
     uses such as `dev.docapi.operations.OperationContext.ProgressListener`) becomes the new one; a file of the old
     package that used the type without an import gets one; an import of the file's own package is dropped.

It is idempotent: a second run changes nothing. It leaves alone everything else, and so it works on a tree where
other files (added on other branches) also use the moved types. Visibility changes that a move needs are not made
here but in the commit before it (see the commit that added this script).
"""
import argparse
import os
import re
import subprocess
import sys

# old fully qualified name -> new one. The top-level packages then stand, from the bottom: core; config; engines, net,
# crypto; accounts; files, http; contract; text, jobs; limits; ai; operations, management; api; workflows, webhooks,
# openapi; mcp, web (core/PackageDependenciesTest: no cycle).
MOVES = {
    # the operation contract: what Operation#run takes, returns and throws (used by ai, text, jobs, workflows)
    "dev.docapi.operations.InputFile": "dev.docapi.contract.InputFile",
    "dev.docapi.operations.OperationContext": "dev.docapi.contract.OperationContext",
    "dev.docapi.operations.OperationFailure": "dev.docapi.contract.OperationFailure",
    "dev.docapi.operations.OperationResult": "dev.docapi.contract.OperationResult",
    # sealed secrets (used by accounts, jobs, limits, workflows, ai)
    "dev.docapi.ai.SecretBox": "dev.docapi.crypto.SecretBox",
    "dev.docapi.ai.SecretMigration": "dev.docapi.crypto.SecretMigration",
    # request helpers of every controller and filter (api, limits, workflows, web, mcp, webhooks)
    "dev.docapi.api.Authenticated": "dev.docapi.http.Authenticated",
    "dev.docapi.api.ErrorWriter": "dev.docapi.http.ErrorWriter",
    # the admin command line uses accounts and ai (provider keys): it stands above both, beside the admin API
    "dev.docapi.accounts.AdminCommands": "dev.docapi.management.AdminCommands",
    # a workflow step is an operation with its options; edit-plan (operations) checks plans with them
    "dev.docapi.workflows.Step": "dev.docapi.operations.Step",
    "dev.docapi.workflows.StepValidator": "dev.docapi.operations.StepValidator",
}

ROOTS = ["src/main/java", "src/test/java"]

IDENT = r"[A-Za-z_$][\w$]*"


def pkg_of(fqn):
    return fqn.rsplit(".", 1)[0]


def simple(fqn):
    return fqn.rsplit(".", 1)[1]


def path_of(root, fqn):
    return os.path.join(root, *fqn.split(".")) + ".java"


def strip_comments_and_strings(src):
    """The source with comments, string and char literals (text blocks too) blanked: what the compiler reads as names."""
    out = []
    i, n = 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" ")
            i = j
        elif src.startswith('"""', i):
            j = src.find('"""', i + 3)
            while j > 0 and src[j - 1] == "\\":
                j = src.find('"""', j + 1)
            j = n if j < 0 else j + 3
            out.append('""')
            i = j
        elif src[i] in "\"'":
            q = src[i]
            j = i + 1
            while j < n and src[j] != q and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            out.append(q + q)
            i = j + 1
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


def comments(src):
    return "\n".join(re.findall(r"/\*.*?\*/", src, re.S))


def uses_in_code(code, name):
    # a simple name not after a dot (a qualified name is rewritten by its prefix) and not part of a longer name
    return re.search(r"(?<![\w$.])" + re.escape(name) + r"(?![\w$])", code) is not None


DOC_LINK = r"(\{@link(?:plain)?\s+|@see\s+|@throws\s+|@exception\s+)"


def uses_in_docs(src, name):
    return re.search(DOC_LINK + re.escape(name) + r"(?![\w$])", comments(src)) is not None


def imports(src):
    """Simple names brought in by single-type imports, with the name they import."""
    found = {}
    for m in re.finditer(r"^import\s+(" + IDENT + r"(?:\s*\.\s*" + IDENT + r")*)\s*;", src, re.M):
        fqn = re.sub(r"\s", "", m.group(1))
        found[simple(fqn)] = fqn
    return found


def declares(code, name):
    return re.search(r"\b(class|interface|enum|record|@interface)\s+" + re.escape(name) + r"\b", code) is not None


def package_of_source(src):
    m = re.search(r"^package\s+([\w.]+)\s*;", src, re.M)
    return m.group(1) if m else ""


def add_import(src, fqn):
    """Adds `import fqn;` among the single-type imports, before the first that sorts after it."""
    line = "import " + fqn + ";"
    if re.search(r"^" + re.escape(line) + r"\s*$", src, re.M):
        return src
    plain = [m for m in re.finditer(r"^import\s+(?!static\s)([\w.]+(?:\.\*)?)\s*;[^\n]*\n", src, re.M)]
    if plain:
        for m in plain:
            if m.group(1) > fqn:
                return src[:m.start()] + line + "\n" + src[m.start():]
        last = plain[-1]
        return src[:last.end()] + line + "\n" + src[last.end():]
    statics = list(re.finditer(r"^import\s+static\s[^\n]*\n", src, re.M))
    if statics:
        end = statics[-1].end()
        return src[:end] + "\n" + line + "\n" + src[end:]
    m = re.search(r"^package\s+[\w.]+\s*;[^\n]*\n", src, re.M)
    rest = src[m.end():]
    return src[:m.end()] + "\n" + line + "\n" + ("" if rest.startswith("\n") else "\n") + rest


def drop_own_package_imports(src, own, moved_file):
    """Drops imports of the file's own package: of a moved type (imported from its old package), and in a moved file
    any (it imported types of the package it moved to)."""
    if moved_file:
        return re.sub(r"^import\s+" + re.escape(own) + r"\.[A-Z][\w$]*\s*;[^\n]*\n", "", src, flags=re.M)
    for old, new in MOVES.items():
        if pkg_of(new) == own:
            src = re.sub(r"^import\s+" + re.escape(new) + r"\s*;[^\n]*\n", "", src, flags=re.M)
    return src


def types_in(root, package):
    d = os.path.join(root, *package.split("."))
    if not os.path.isdir(d):
        return set()
    return {f[:-5] for f in os.listdir(d) if f.endswith(".java") and f != "package-info.java"}


def rewrite(path, src, former_package, main_root):
    """The new text of one Java file; former_package is the package it was in before this script moved it."""
    out = src
    # 1. qualified names: imports, static imports, uses in code and Javadoc
    for old, new in MOVES.items():
        out = re.sub(r"(?<![\w$.])" + re.escape(old) + r"(?![\w$])", new, out)
    own = package_of_source(out)
    code = strip_comments_and_strings(out)
    imported = imports(out)
    # 2. types of the former package a file used without an import: the moved types (for any file of that package,
    #    moved or not), and for a moved file also the types that stayed there
    wanted = []
    for old, new in MOVES.items():
        s = simple(old)
        if pkg_of(old) == former_package and pkg_of(new) != own and s not in imported and not declares(code, s):
            if uses_in_code(code, s) or uses_in_docs(out, s):
                wanted.append(new)
    if former_package != own:
        stayed = types_in(main_root, former_package) - {simple(o) for o in MOVES if pkg_of(o) == former_package}
        for s in sorted(stayed):
            if s in imported or declares(code, s):
                continue
            if uses_in_code(code, s):
                wanted.append(former_package + "." + s)
            elif uses_in_docs(out, s):
                # a Javadoc link only: name the type in full rather than import it from a package above
                out = re.sub(DOC_LINK + re.escape(s) + r"(?![\w$])", lambda m: m.group(1) + former_package + "." + s, out)
    for fqn in wanted:
        out = add_import(out, fqn)
    # 3. an import of the file's own package (it imported the type from its old package)
    out = drop_own_package_imports(out, own, former_package != own)
    return out


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="say what would change, change nothing")
    args = ap.parse_args()
    os.chdir(git("rev-parse", "--show-toplevel"))
    main_root = ROOTS[0]
    changes = []

    # moves: old place -> new place (checked all first, so a half-moved tree is refused before anything changes)
    moved = {}  # new path -> former package
    pending = []
    for old, new in MOVES.items():
        src_path, dst_path = path_of(main_root, old), path_of(main_root, new)
        have_src, have_dst = os.path.exists(src_path), os.path.exists(dst_path)
        if have_src and have_dst:
            sys.exit(f"both {src_path} and {dst_path} exist: merge them by hand, then run again")
        if not have_src and not have_dst:
            sys.exit(f"neither {src_path} nor {dst_path} exists: has {old} been renamed?")
        if have_src:
            pending.append((src_path, dst_path))
        moved[dst_path] = pkg_of(old)
    for src_path, dst_path in pending:
        changes.append(f"git mv {src_path} {dst_path}")
        if not args.check:
            os.makedirs(os.path.dirname(dst_path), exist_ok=True)
            git("mv", src_path, dst_path)

    # the package line of each moved file
    for dst_path, former in moved.items():
        if args.check and not os.path.exists(dst_path):
            continue
        src = open(dst_path, encoding="utf-8").read()
        new_pkg = pkg_of(next(n for o, n in MOVES.items() if path_of(main_root, n) == dst_path))
        out = re.sub(r"^package\s+[\w.]+\s*;", "package " + new_pkg + ";", src, count=1, flags=re.M)
        if out != src:
            changes.append(f"package {new_pkg}: {dst_path}")
            if not args.check:
                open(dst_path, "w", encoding="utf-8").write(out)

    # every Java file: qualified names, imports
    for root in ROOTS:
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if not f.endswith(".java"):
                    continue
                path = os.path.join(d, f)
                src = open(path, encoding="utf-8").read()
                former = moved.get(path) or package_of_source(src)
                out = rewrite(path, src, former, main_root)
                if out != src:
                    changes.append(f"rewrote {path}")
                    if not args.check:
                        open(path, "w", encoding="utf-8").write(out)

    for c in changes:
        print(c)
    print(f"{len(changes)} change(s)" + (" needed" if args.check else ""), file=sys.stderr)
    if args.check and changes:
        sys.exit(1)


if __name__ == "__main__":
    main()
