#!/usr/bin/env python3
"""Package.swift declares every product a target imports and nothing it does not (issue 29, point 4).

Reads the targets and their dependencies from `swift package dump-package` (run once, with a scratch path of
its own so it never waits on a build holding .build's lock) and the modules each target's Swift files import.
A dependency provides modules: a target of this package its own module; `.product(name:package:)` the
modules of that product's targets, read from the dependency's own manifest (`swift package dump-package` in
.build/checkouts/<package>, cached in .build/package-imports-cache.json by the manifest's hash).

Reports, one line per problem, and exits 1 when there is any:
  - a module a target imports that none of its direct dependencies provides (the toolchain's own modules,
    SYSTEM_MODULES, are exempt; an import inside `#if canImport(...)` is allowed without a dependency);
  - a dependency a target declares that none of its files imports (an import under `#if canImport(...)`
    counts as a use).

Usage: scripts/lib/check_package_imports.py [PACKAGE_DIR]   (default: the current directory)
"""
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

# Modules of the toolchain and the platform: never a package dependency.
SYSTEM_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "_Differentiation", "RegexBuilder", "Observation",
    "Distributed", "Synchronization", "Cxx", "CxxStdlib", "SwiftShims",
    "Foundation", "FoundationNetworking", "FoundationXML", "FoundationEssentials",
    "FoundationInternationalization", "CoreFoundation", "Dispatch",
    "Glibc", "Musl", "Bionic", "Android", "Darwin", "WinSDK", "ucrt", "CRT", "os",
    "Testing", "XCTest",
}

# Imports: attributes (@testable, @preconcurrency, @_exported, @_implementationOnly, ...), an access level
# (Swift 6: public/package/internal/... import), an import kind (struct, func, ...), then the module path.
IMPORT = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|open)\s+)?"
    r"import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)"
)
DIRECTIVE = re.compile(r"^#\s*(if|elseif|else|endif)\b(.*)$")


CODE_TOKEN = re.compile(r'//|/\*|(#*)("""|")')
COMMENT_TOKEN = re.compile(r"/\*|\*/")


def strip_code(text):
    """The text with comments and string literals blanked (newlines kept), so only code is searched."""
    out, i, n = [], 0, len(text)
    while i < n:
        m = CODE_TOKEN.search(text, i)
        if not m:
            out.append(text[i:])
            break
        out.append(text[i:m.start()])
        token, i = m.group(0), m.end()
        if token == "//":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if token == "/*":  # Swift block comments nest
            depth, start = 1, i
            while depth:
                c = COMMENT_TOKEN.search(text, i)
                if not c:
                    i = n
                    break
                depth, i = depth + (1 if c.group(0) == "/*" else -1), c.end()
            out.append("\n" * text.count("\n", start, i))
            continue
        hashes, quote = m.group(1), m.group(2)
        if hashes:  # raw string: ends at the quote followed by as many #
            j = text.find(quote + hashes, i)
            end = n if j < 0 else j + len(quote) + len(hashes)
        else:
            close = re.compile(r'\\[\s\S]|' + ('"""' if quote == '"""' else '"|\n'))
            end = n
            while True:
                c = close.search(text, i)
                if not c:
                    break
                i = c.end()
                if not c.group(0).startswith("\\"):
                    end = i
                    break
        out.append('""' + "\n" * text.count("\n", m.end(), end))
        i = end
    return "".join(out)


def file_imports(path):
    """{module: conditional} for one Swift file; conditional when every import of it is under canImport."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    found = {}
    # Each open #if: whether its chain so far (the current branch or an earlier one) tests canImport.
    stack = []
    for line in code.splitlines():
        line = line.strip()
        d = DIRECTIVE.match(line)
        if d:
            kind, cond = d.group(1), d.group(2)
            if kind == "if":
                stack.append("canImport(" in cond)
            elif kind == "elseif" and stack:
                stack[-1] = stack[-1] or "canImport(" in cond
            elif kind == "endif" and stack:
                stack.pop()
            continue
        m = IMPORT.match(line)
        if m:
            module, conditional = m.group(1), any(stack)
            found[module] = found.get(module, True) and conditional
    return found


def target_dir(root, target):
    if target.get("path"):
        return os.path.join(root, target["path"])
    for parent in (["Tests"] if target["type"] == "test" else ["Sources", "Source", "src", "srcs"]):
        candidate = os.path.join(root, parent, target["name"])
        if os.path.isdir(candidate):
            return candidate
    return None


def target_imports(root, target):
    """{module: conditional} over the target's Swift files."""
    base = target_dir(root, target)
    if base is None:
        return {}
    excluded = [os.path.normpath(os.path.join(base, e)) for e in target.get("exclude") or []]
    sources = [os.path.join(base, s) for s in target["sources"]] if target.get("sources") else [base]
    imports = {}
    for source in sources:
        files = [source] if os.path.isfile(source) else [
            os.path.join(d, f) for d, _, fs in os.walk(source) for f in fs]
        for path in files:
            norm = os.path.normpath(path)
            if not path.endswith(".swift") or any(norm == e or norm.startswith(e + os.sep) for e in excluded):
                continue
            for module, conditional in file_imports(path).items():
                imports[module] = imports.get(module, True) and conditional
    return imports


def dump_package(directory):
    # A scratch path of its own: dump-package needs no build folder, and .build's lock may be held by a build.
    with tempfile.TemporaryDirectory(prefix="check-package-imports-") as scratch:
        run = subprocess.run(["swift", "package", "--package-path", directory, "--scratch-path", scratch,
                              "dump-package"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"error: swift package dump-package failed in {directory}: {run.stderr.strip()}")
    return json.loads(run.stdout)


class Products:
    """The modules of the dependencies' products, from their own manifests (cached by manifest hash)."""

    def __init__(self, root):
        self.checkouts = os.path.join(root, ".build", "checkouts")
        self.cache_path = os.path.join(root, ".build", "package-imports-cache.json")
        try:
            with open(self.cache_path) as f:
                self.cache = json.load(f)
        except (OSError, ValueError):
            self.cache = {}
        self.changed = False
        self.resolved = False
        self.resolving = threading.Lock()
        self.root = root

    def checkout(self, package):
        for attempt in range(2):
            if os.path.isdir(self.checkouts):
                for name in os.listdir(self.checkouts):
                    if name.lower() == package.lower():
                        return os.path.join(self.checkouts, name)
            with self.resolving:
                if attempt == 0 and not self.resolved:  # a fresh clone: fetch the dependencies once
                    self.resolved = True
                    subprocess.run(["swift", "package", "--package-path", self.root, "resolve"], check=False)
        sys.exit(f"error: package '{package}' has no checkout in {self.checkouts} (swift package resolve)")

    def prefetch(self, packages):
        """Reads the manifests not cached yet, a few at a time (each is a compile of Package.swift)."""
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
            list(pool.map(self.products, sorted(set(packages))))

    def provider(self, module):
        """`.product(...)` of a checked-out package whose product holds module (its own name first), or None."""
        if not os.path.isdir(self.checkouts):
            return None
        found = []
        self.prefetch(os.listdir(self.checkouts))
        for package in sorted(os.listdir(self.checkouts)):
            for product, targets in self.products(package).items():
                if module in targets:
                    found.append((product != module, len(targets), package, product))
        if not found:
            return None
        _, _, package, product = min(found)
        return f'.product(name: "{product}", package: "{package}")'

    def modules(self, product, package):
        products = self.products(package)
        if product not in products:
            sys.exit(f"error: package '{package}' has no product '{product}' (its products: "
                     f"{', '.join(sorted(products))})")
        return products[product]

    def products(self, package):
        """{product: [its targets]} of one dependency, from its manifest (cached by the manifest's hash)."""
        directory = self.checkout(package)
        digest = hashlib.sha256()
        for name in sorted(os.listdir(directory)):
            if re.fullmatch(r"Package(@swift-[\d.]+)?\.swift", name):
                with open(os.path.join(directory, name), "rb") as f:
                    digest.update(name.encode() + b"\0" + f.read())
        key = package.lower()
        entry = self.cache.get(key)
        if not entry or entry.get("manifest") != digest.hexdigest():
            dump = dump_package(directory)
            entry = {"manifest": digest.hexdigest(),
                     "products": {p["name"]: p["targets"] for p in dump["products"]}}
            self.cache[key] = entry
            self.changed = True
        return entry["products"]

    def save(self):
        if self.changed and os.path.isdir(os.path.dirname(self.cache_path)):
            temporary = f"{self.cache_path}.{os.getpid()}"
            with open(temporary, "w") as f:
                json.dump(self.cache, f, indent=1, sort_keys=True)
            os.replace(temporary, self.cache_path)


def check(root):
    manifest = dump_package(root)
    local = {t["name"] for t in manifest["targets"]}
    products = Products(root)
    products.prefetch(list(d.values())[0][1] for t in manifest["targets"] for d in t["dependencies"]
                      if "product" in d)
    direct = {(list(d.values())[0][0].get("identity") or "").lower() for d in manifest["dependencies"]}
    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        provided = {}  # module -> the dependency (as written in Package.swift) that provides it
        for dependency in target["dependencies"]:
            (kind, value), = dependency.items()
            if kind in ("byName", "target"):
                name = value[0]
                if kind == "target" or name in local:
                    provided[name] = f'"{name}"'
                    continue
                # A product named without its package: the direct dependency that has it.
                owners = [p for p in sorted(direct) if name in products.products(p)]
                if not owners:
                    sys.exit(f"error: {target['name']}: '{name}' is neither a target of this package nor a product "
                             f"of its dependencies")
                for module in products.modules(name, owners[0]):
                    provided[module] = f'"{name}"'
            elif kind == "product":
                name, package, aliases = value[0], value[1], value[2] or {}
                label = f'.product(name: "{name}", package: "{package}")'
                for module in products.modules(name, package):
                    provided[aliases.get(module, module)] = label
        imports = target_imports(root, target)
        for module in sorted(imports):
            if module in provided or module in SYSTEM_MODULES or module == target["name"] or imports[module]:
                continue
            if module in local:
                hint = f'add "{module}" to its dependencies'
            elif (product := products.provider(module)) is None:
                hint = "no package in .build/checkouts provides it: add the package and its product"
            else:
                package = re.search(r'package: "([^"]+)"', product).group(1).lower()
                hint = f"add {product} to its dependencies" + (
                    "" if package in direct else f", and {package} to the package's dependencies, pinned exact:")
            problems.append(f"{target['name']}: imports {module}, which none of its dependencies provides "
                            f"({hint})")
        used = {provided[m] for m in imports if m in provided}
        for label in dict.fromkeys(provided.values()):
            if label not in used:
                problems.append(f"{target['name']}: declares {label} in Package.swift, but none of its files "
                                f"imports it (remove it)")
    products.save()
    return problems


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    problems = check(root)
    for problem in problems:
        print(f"error: Package.swift: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
