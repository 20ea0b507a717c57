# SPDX-License-Identifier: GPL-2.0
"""Golden test of scripts/matrix.py on tests/fixtures/matrix/: the text and
Markdown matrices of a results.tsv with two series, the canonical stage
order with a check in between, a worst status and summed seconds per
cell, indexes in numeric order, a long subject and one with a pipe, cross
cells by architecture (one not covered, one outside scripts/arches), and
the failures and warnings with their logs."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "matrix.py"
FIX = ROOT / "tests" / "fixtures" / "matrix"


def run(*args):
    return subprocess.run([str(TOOL), *map(str, args)], capture_output=True)


def test_text_matrix_is_the_golden_one_and_exits_1_on_a_failing_cell():
    res = run(FIX / "results.tsv", FIX / "arches", "text")
    assert res.returncode == 1
    assert res.stdout == (FIX / "expected.text").read_bytes()


def test_markdown_matrix_is_the_golden_one():
    res = run(FIX / "results.tsv", FIX / "arches", "md")
    assert res.returncode == 1
    assert res.stdout == (FIX / "expected.md").read_bytes()


def test_no_failing_cell_exits_0(tmp_path):
    rows = (FIX / "results.tsv").read_text().splitlines()
    kept = [r for r in rows if "\tfail\t" not in r]
    (tmp_path / "results.tsv").write_text("\n".join(kept) + "\n")
    res = run(tmp_path / "results.tsv", FIX / "arches", "text")
    assert res.returncode == 0
    assert res.stdout.endswith(b"\n0 failing cell(s)\n")


def test_a_table_without_the_arch_column_still_renders(tmp_path):
    rows = [r.split("\t")[:9] for r in (FIX / "results.tsv").read_text().splitlines()
            if "\tcross\t" not in r]
    (tmp_path / "results.tsv").write_text("".join("\t".join(r) + "\n" for r in rows))
    res = run(tmp_path / "results.tsv", FIX / "arches", "text")
    assert res.returncode == 1
    assert b"cross-compiled by architecture" not in res.stdout


def test_usage_and_a_missing_file_exit_2():
    assert run(FIX / "results.tsv").returncode == 2
    res = run(FIX / "nonexistent.tsv", FIX / "arches", "text")
    assert res.returncode == 2
    assert b"nonexistent.tsv" in res.stderr


def test_the_same_warning_of_several_commits_is_one_line_naming_them(tmp_path):
    head = "series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\tarch\n"
    rows = "".join(f"one\t{i}\t{c * 16}\ts{i}\tsignoff\twarn\t0\tthe sender's address\t/l/{i}\t\n"
                   for i, c in ((1, "a"), (2, "b"), (3, "c"), (5, "e")))
    rows += "one\t4\t" + "d" * 16 + "\ts4\tsignoff\twarn\t0\tanother\t/l/4\t\n"
    (tmp_path / "results.tsv").write_text(head + rows)
    res = run(tmp_path / "results.tsv", FIX / "arches", "text")
    text = res.stdout.decode()
    assert ("  one 1-3,5 (4 commits) signoff: warn: the sender's address\n"
            "      log: /l/1 (and 3 more, one per commit)\n") in text
    assert "  one 4 dddddddddddd signoff: warn: another\n      log: /l/4\n" in text


def test_html_page_is_the_golden_one():
    res = run(FIX / "results.tsv", FIX / "arches", "html")
    assert res.returncode == 1
    assert res.stdout == (FIX / "expected.html").read_bytes()


def test_html_page_links_a_log_of_the_same_workdir_relative_to_the_page_and_escapes_what_it_shows(tmp_path):
    report = tmp_path / "report"
    report.mkdir()
    row = ["one", "1", "a" * 40, "tty: <script>alert(1)</script> & more", "boot", "fail", "3",
           'the "guest" said <b>', str(tmp_path / "boots" / "smoke" / "aaaa"), "x86_64", "0"]
    (report / "results.tsv").write_text("\t".join(["series", "index", "commit", "subject", "stage",
                                                   "status", "seconds", "detail", "log", "arch",
                                                   "cached"]) + "\n" + "\t".join(row) + "\n")
    res = run(report / "results.tsv", FIX / "arches", "html")
    assert res.returncode == 1
    page = res.stdout.decode()
    assert '<a href="../boots/smoke/aaaa">FAIL 3s</a>' in page
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page
    assert 'title="the &quot;guest&quot; said &lt;b&gt;"' in page
    assert '<td class="fail"' in page


def test_html_page_carries_the_fragments_it_is_given_after_the_matrix(tmp_path):
    frag = tmp_path / "designs.html"
    frag.write_text("<h2>siginfo at the series heads</h2>\n")
    res = run(FIX / "results.tsv", FIX / "arches", "html", frag)
    page = res.stdout.decode("latin-1")
    assert page.index("Failures and warnings") < page.index("<h2>siginfo at the series heads</h2>")
    assert page.rstrip().endswith("</body></html>")


def test_check_links_names_each_link_that_leads_nowhere(tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "there.log").write_text("x\n")
    page = tmp_path / "report" / "index.html"
    page.parent.mkdir()
    page.write_text('<a href="../logs/there.log">a</a> <a href="../logs/gone.log">b</a>'
                    f' <a href="file://{tmp_path}/logs">c</a> <a href="file://{tmp_path}/nope">d</a>'
                    ' <a href="https://example.org/">e</a> <a href="#top">f</a>\n')
    res = run("--check-links", page)
    assert res.returncode == 1
    assert res.stdout.decode().splitlines() == [
        f"matrix.py: {page}: a link that leads nowhere: ../logs/gone.log",
        f"matrix.py: {page}: a link that leads nowhere: file://{tmp_path}/nope"]
    page.write_text('<a href="../logs/there.log">a</a>\n')
    assert run("--check-links", page).returncode == 0


def test_the_other_boot_architectures_come_after_boot_debug_in_the_canonical_order(tmp_path):
    """Each architecture's build then its boot: arm64, i386, mips64el, then
    one the workspace does not know (riscv64); build-debug and boot-debug
    are x86_64's, boot-debug in its place and build-debug a stage like a
    check's."""
    head = "series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\tarch\n"
    stages = [("boot-mips64el", "mips64el"), ("sparse", ""), ("build-riscv64", "riscv64"),
              ("boot-i386", "i386"), ("boot-debug", "x86_64"), ("build-mips64el", "mips64el"),
              ("boot", "x86_64"), ("boot-arm64", "arm64"), ("build-i386", "i386"),
              ("apply", ""), ("build-arm64", "arm64"), ("build", "x86_64"),
              ("checkpatch", ""), ("boot-riscv64", "riscv64"), ("build-debug", "x86_64")]
    rows = "".join(f"one\t2\t{'c' * 40}\ttwo\t{s}\tpass\t1\tok\t\t{a}\n" for s, a in stages)
    (tmp_path / "results.tsv").write_text(head + rows)
    res = run(tmp_path / "results.tsv", FIX / "arches", "md")
    assert res.returncode == 0
    header = next(l for l in res.stdout.decode().splitlines() if l.startswith("| # | commit"))
    assert [c.strip() for c in header.split("|")[4:-1]] == [
        "apply", "checkpatch", "build-debug", "sparse", "build", "boot", "boot-debug",
        "build-arm64", "boot-arm64", "build-i386", "boot-i386",
        "build-mips64el", "boot-mips64el", "build-riscv64", "boot-riscv64"]
