"""Tests of scripts/check-links: run with `cd scripts && python3 -m unittest test_check_links`."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-links")


def run(root):
    return subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)


class CheckLinks(unittest.TestCase):
    def tree(self, readme):
        root = tempfile.mkdtemp()
        os.makedirs(os.path.join(root, "docs"))
        with open(os.path.join(root, "docs", "a.md"), "w") as f:
            f.write("# Title\n\n## Some `code` heading\n")
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write(readme)
        return root

    def test_good_links_pass(self):
        root = self.tree("[a](docs/a.md) [b](docs/a.md#some-code-heading) [w](https://example.org/x)\n")
        result = run(root)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("links: 2 checked, 0 broken", result.stdout)

    def test_broken_link_fails(self):
        root = self.tree("[a](docs/a.md)\n\n[gone](docs/missing.md)\n")
        result = run(root)
        self.assertEqual(result.returncode, 1)
        self.assertIn("README.md:3: broken link docs/missing.md", result.stdout)

    def test_broken_anchor_fails(self):
        root = self.tree("[a](docs/a.md#no-such-heading)\n")
        result = run(root)
        self.assertEqual(result.returncode, 1)
        self.assertIn("broken link docs/a.md#no-such-heading", result.stdout)

    def test_links_in_code_are_skipped(self):
        root = self.tree("```\n[x](nowhere.md)\n```\n`[y](nowhere.md)`\n")
        self.assertEqual(run(root).returncode, 0)


if __name__ == "__main__":
    unittest.main()
