#!/usr/bin/env python3
"""Command-line tests of the order model trained once per position scheme (issue 14):
--train-order, --print order-training, --order-task files and their errors, the
order-training figure. The claims are checked on what tfviz prints, parsed here.

Usage: order_cli_test.py TFVIZ GROUP"""
import csv
import io
import json
import os
import struct
import sys
import tempfile
import time

from harness import check, run_group, run_tfviz  # noqa: E402

TFVIZ = None
SCHEMES = ["none", "sinusoidal", "learned", "rope"]
# a sanitizer build is ten to twenty times slower on this arithmetic: a smaller task, fewer epochs
# and a narrower model, with the same assertions (the plain and werror builds run the defaults)
SANITIZED = bool(os.environ.get("TFVIZ_SANITIZED"))
LIGHT = ("--order-pairs", "300,100", "--epochs", "12", "-d", "16") if SANITIZED else ()


def run(*args, ok=True, timeout=120):
    return run_tfviz(TFVIZ, args, ok=ok, timeout=timeout)


def final_table(text):
    """{scheme: (loss, train %, held-out %, same %)} from --train-order's final table."""
    rows, on = {}, False
    for line in text.splitlines():
        if line.strip().startswith("scheme") and "held-out acc" in line:
            on = True
            continue
        if on:
            parts = line.split()
            if len(parts) < 8 or parts[0] not in SCHEMES + ["alibi", "t5"]:
                break
            same = float(parts[6]) if parts[6] != "-" else None  # "- (no pairs)"
            rows[parts[0]] = (float(parts[1]), float(parts[2]), float(parts[4]), same)
    return rows


def curves(*args):
    p = run("--print", "order-training", "--format", "csv", *args)
    return list(csv.DictReader(io.StringIO(p.stdout.decode())))


def test_train():
    """The default run: none at chance with the same answer for both orders of every pair, the
    three schemes with positions at 95 % or more, within 10 s on this machine's cores."""
    t0 = time.monotonic()
    p = run("--train-order", *LIGHT)
    secs = time.monotonic() - t0
    out = p.stdout.decode()
    rows = final_table(out)
    check(sorted(rows) == sorted(SCHEMES), f"final table has the four schemes: {sorted(rows)}")
    if "none" in rows:
        check(rows["none"][2] <= 55.0, f"none held-out {rows['none'][2]} % <= 55 %")
        check(rows["none"][3] == 100.0, f"none: same answer for both orders in "
              f"{rows['none'][3]} % of pairs")
    for s in SCHEMES[1:]:
        if s in rows:
            check(rows[s][2] >= 95.0, f"{s} held-out {rows[s][2]} % >= 95 %")
    check("我 爱 学习 / 学习 爱 我" in out, "the watched pair is the article's")
    check("Why none stays at 50%" in out, "the text says why none stays at 50 %")
    if not SANITIZED:  # the target itself is bench/bench_order.c's
        check(secs < 30, f"default training took {secs:.1f} s (target 10 s on 2 idle cores)")
    err = p.stderr.decode()
    check("trained 4 schemes" in err, f"stderr says what was trained: {err.strip()[:80]}")
    # another seed and size, and --scheme picks the schemes in its order
    p = run("--train-order", "--seed", "7", "--order-pairs", "400,150", "--scheme",
            "rope,none", *(("--epochs", "12", "-d", "16") if SANITIZED else ()))
    rows = final_table(p.stdout.decode())
    check(list(rows) == ["rope", "none"], f"--scheme rope,none: {list(rows)}")
    if "none" in rows and "rope" in rows:
        check(rows["none"][2] <= 55.0 and rows["none"][3] == 100.0,
              f"seed 7: none {rows['none'][2]} %, same {rows['none'][3]} %")
        check(rows["rope"][2] >= 95.0, f"seed 7: rope {rows['rope'][2]} %")


def test_print():
    """--print order-training: csv and json curves, one row per epoch and scheme, the same bits
    for a seed whatever the threads, and the final row the table's."""
    args = ("--order-pairs", "120,40", "-d", "16", "--epochs", "6")
    rows = curves(*args)
    check(rows and list(rows[0]) == ["epoch", "scheme", "loss", "train_acc", "test_acc",
                                     "test_loss", "pair_same"], "csv columns")
    check(len(rows) == 7 * 4, f"7 epochs (0..6) x 4 schemes: {len(rows)} rows")
    check([r["scheme"] for r in rows[:4]] == SCHEMES, "schemes of an epoch together, in order")
    check(all(0.0 <= float(r["test_acc"]) <= 1.0 for r in rows), "accuracies are shares")
    check(all(float(r["pair_same"]) == 1.0 for r in rows if r["scheme"] == "none"),
          "none gives both orders the same answer at every epoch")
    check(all(float(r["test_acc"]) <= 0.5 for r in rows if r["scheme"] == "none"),
          "none never beats chance on held-out pairs")
    one = run("--print", "order-training", "--format", "csv", "--threads", "1", *args).stdout
    two = run("--print", "order-training", "--format", "csv", "--threads", "4", *args).stdout
    check(one == two, "same curves bit for bit with 1 and 4 threads")
    again = run("--print", "order-training", "--format", "csv", "--threads", "1", *args).stdout
    check(one == again, "same curves bit for bit run after run")
    other = run("--print", "order-training", "--format", "csv", "--seed", "3", *args).stdout
    check(one != other, "another seed, other curves")
    j = json.loads(run("--print", "order-training", "--format", "json", *args).stdout)
    check(set(j) >= {"task", "model", "schemes", "chance", "curves", "final"},
          f"json keys {sorted(j)}")
    check(j["chance"] == 0.5 and j["schemes"] == SCHEMES, "json: chance and schemes")
    check(j["model"]["d_model"] == 16 and j["model"]["epochs"] == 6, "json: the model's settings")
    check(j["task"]["train_sentences"] == 240 and j["task"]["test_sentences"] == 84,
          f"json: 120 + 40 pairs, the article's two pairs held out besides: {j['task']}")
    check(j["task"]["example"] == ["我", "爱", "学习"], f"json: example {j['task']['example']}")
    last = {r["scheme"]: r for r in j["final"]}
    check(all(last[s]["epoch"] == 6 for s in SCHEMES), "json: final rows are epoch 6")
    text = run("--print", "order-training", *args).stdout.decode()
    t = final_table(text)
    check(abs(t["none"][2] - 100 * last["none"]["test_acc"]) < 0.051, "text and json agree")
    p = run("--print", "order-training", "--format", "npy", *args, ok=False)
    check(p.returncode == 2, "npy is refused for the curves")


def write(d, name, data):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def test_task():
    """--order-task: a good file trains; every bad line is refused with its line (and column)
    and exit status 2, an unreadable file too; -o writes a task that reads back."""
    with tempfile.TemporaryDirectory() as d:
        good = write(d, "good.txt", "# who does it\n*猫 追 狗\n*狗 追 猫\n*我 爱 学习\n*学习 爱 我\n"
                     "@test\n*老师 帮 学生\n*学生 帮 老师\n")
        p = run("--train-order", "--order-task", good, "--epochs", "3")
        out = p.stdout.decode()
        check("sentences from" in out and "4 training sentences" in out
              and "2 held out" in out, "a user's file: 4 training, 2 held-out sentences")
        rows = final_table(out)
        check(rows.get("none", (0, 0, 0, 0))[3] == 100.0, "file: none names one doer per pair")
        # the example file of the guide: two shapes, every sentence with its other order
        example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs",
                               "examples", "who-does-it.txt")
        p = run("--train-order", "--order-task", example,
                *(("--epochs", "8", "-d", "16") if SANITIZED else ("--epochs", "15")))
        rows = final_table(p.stdout.decode())
        check(rows.get("none", (0, 0, 100, 0))[2] <= 50.0 and rows["none"][3] == 100.0,
              f"who-does-it.txt: none at chance ({rows.get('none')})")
        check(all(rows.get(k, (0, 0, 0, 0))[2] >= 95.0 for k in SCHEMES[1:]),
              f"who-does-it.txt: the schemes with positions learn ({rows})")
        cases = [
            ("nomark.txt", "*猫 追 狗\n狗 追 猫\n", "line 2"),
            ("two.txt", "*猫 *追 狗\n", "line 1, column 6"),
            ("utf8.txt", b"*\xe7\x8c\xab \xff\n", "line 1, column 6"),
            ("one.txt", "*猫\n", "line 1"),
            ("empty_mark.txt", "* 猫 追\n", "line 1, column 1"),
            ("stray.txt", "猫*狗 追\n", "line 1, column 4"),
            ("directive.txt", "@dev\n*猫 追 狗\n", "line 1"),
            ("conflict.txt", "*猫 追 狗\n猫 追 *狗\n", "see line 1"),
            ("empty.txt", "# nothing\n\n", "no sentence"),
            ("one_group.txt", "*猫 追 狗\n狗 追 *猫\n", "held out"),
            ("control.txt", "*猫 追\x01 狗\n", "line 1"),
            ("long.txt", "*" + "猫" * 30 + " 狗\n", "line 1"),
        ]
        for name, data, where in cases:
            path = write(d, name, data)
            p = run("--train-order", "--order-task", path, ok=False)
            err = p.stderr.decode()
            check(p.returncode == 2 and where in err and name in err and err.count("\n") == 1,
                  f"{name}: exit {p.returncode}: {err.strip()}")
        p = run("--train-order", "--lang", "zh", "--order-task",
                os.path.join(d, "nomark.txt"), ok=False)
        check("第 2 行" in p.stderr.decode(), "a bad line is said in Chinese too with --lang zh")
        p = run("--train-order", "--order-task", os.path.join(d, "missing.txt"), ok=False)
        check(p.returncode == 2 and "cannot read" in p.stderr.decode(), "a missing file: exit 2")
        p = run("--train-order", "--order-task", d, ok=False)
        check(p.returncode == 2 and "cannot read" in p.stderr.decode(), "a folder: exit 2")
        # the generated task written out and read back trains the same held-out split
        out_task = os.path.join(d, "task.txt")
        run("--train-order", "--order-pairs", "60,20", "--epochs", "2", "-o", out_task)
        lines = open(out_task, encoding="utf-8").read().splitlines()
        check("@train" in lines and "@test" in lines and "*我 爱 学习" in lines,
              "-o writes the task in the file format")
        p = run("--train-order", "--order-task", out_task, "--epochs", "2")
        check("120 training sentences" in p.stdout.decode(), "the written task reads back")
        p = run("--train-order", "-o", os.path.join(d, "no", "such", "dir.txt"), ok=False)
        check(p.returncode != 0, "an unwritable -o fails before training")


def test_errors():
    """Options that do not go together, and settings out of range, in one sentence each."""
    for args, what in [
        (("--train-order", "--print", "pe"), "separate"),
        (("--train-order", "--export", "x.png"), "separate"),
        (("--order-task", "x.txt", "--print", "pe", "我爱学习"), "--train-order"),
        (("--order-pairs", "10", "--print", "pe", "我爱学习"), "--train-order"),
        (("--train-order", "--order-pairs", "0"), "--order-pairs"),
        (("--train-order", "--order-pairs", "10,x"), "--order-pairs"),
        (("--train-order", "--heads", "9"), "--heads"),
        (("--train-order", "-d", "6", "--heads", "4"), "-d"),
        (("--train-order", "--epochs", "5000"), "--epochs"),
        (("--train-order", "--order-task", "a.txt", "--order-pairs", "5"), "use one"),
        (("--train-order", "--format", "json"), "--print order-training"),
        (("--train-order", "--heads", "3"), "try -d 30"),
        (("--train-order", "-d", "300"), "try -d 256"),
    ]:
        p = run(*args, ok=False)
        err = p.stderr.decode().strip()
        check(p.returncode == 2 and what in err and err.count("\n") == 0,
              f"{' '.join(args)}: exit {p.returncode}: {err}")


def test_class():
    """The class's sentence joins the task (issue 27): a doer-verb-object sentence is the first
    held-out pair, its words act in training sentences, `none` names one doer for both orders
    and the schemes with positions the right one in both; a sentence of another shape says why
    in one line and the built-in pair is watched."""
    for text, a, b in [("小明喜欢小红", ["小明", "喜欢", "小红"], ["小红", "喜欢", "小明"]),
                       ("猫追老鼠", ["猫", "追", "老鼠"], ["老鼠", "追", "猫"]),
                       ("dog bites man", ["dog", "bites", "man"], ["man", "bites", "dog"])]:
        j = json.loads(run("--print", "order-training", "--format", "json", *LIGHT,
                           text).stdout)
        c = j["class_pair"]
        check(c["used"] and c["why"] is None and c["a"] == a and c["b"] == b,
              f"{text}: the class pair is the sentence and its other order: {c['a']} {c['b']}")
        check(j["task"]["example"] == a and j["task"]["example_pair"] == b,
              f"{text}: it is the watched held-out pair")
        check(c["answer_a"] == a[0] and c["answer_b"] == b[0], f"{text}: the doers")
        check(c["none"]["doer_a"] == c["none"]["doer_b"],
              f"{text}: none names one doer for both orders: {c['none']}")
        for s in SCHEMES[1:]:
            check(c[s]["doer_a"] == a[0] and c[s]["doer_b"] == b[0],
                  f"{text}: {s} names the right doer in both orders: {c[s]}")
    # its words join the generated sentences; it and its other order are held out
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "task.txt")
        run("--train-order", "--epochs", "1", "-o", out, "李华欣赏小红")
        lines = open(out, encoding="utf-8").read().split("\n")
        at = lines.index("@test")
        train = [ln.replace("*", "").split() for ln in lines[:at] if ln and ln[0] not in "#@"]
        test = [ln.replace("*", "").split() for ln in lines[at:] if ln and ln[0] not in "#@"]
        check(test[:2] == [["李华", "欣赏", "小红"], ["小红", "欣赏", "李华"]],
              f"the class pair is held out first: {test[:2]}")
        check(["李华", "欣赏", "小红"] not in train and ["小红", "欣赏", "李华"] not in train,
              "the class pair is never trained on")
        check(sum("李华" in s for s in train) >= 10 and sum("欣赏" in s for s in train) >= 2,
              "its nouns and its verb act in training sentences")
    # another shape: one line says why, the built-in pair is watched
    p = run("--train-order", "--epochs", "1", "今天天气很好")
    why = [ln for ln in p.stdout.decode().splitlines() if "built-in pair" in ln]
    check(len(why) == 1 and "今天天气 很 好" in why[0] and "内置" in why[0],
          f"one bilingual line says why: {why}")
    check("watched: 我 爱 学习 / 学习 爱 我" in p.stdout.decode(), "the built-in pair is watched")
    j = json.loads(run("--print", "order-training", "--format", "json", "--epochs", "1",
                       "今天天气很好").stdout)
    c = j["class_pair"]
    check(not c["used"] and c["why"] and c["why_zh"] and c["a"] == ["我", "爱", "学习"],
          f"json: not used, why, the built-in pair: {c['why']}")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24]) if head[:8] == b"\x89PNG\r\n\x1a\n" else None


def test_figure():
    """--export FILE --figure order-training trains first and draws; the PNG's parameters say
    how to draw it again."""
    with tempfile.TemporaryDirectory() as d:
        png = os.path.join(d, "ot.png")
        run("--export", png, "--figure", "order-training", "--order-pairs", "100,30",
            "--epochs", "5", "--lang", "en")
        size = png_size(png)
        check(size is not None and size[0] > 500 and size[1] > 500, f"a PNG of {size}")
        data = open(png, "rb").read()
        check(b"--figure order-training" in data and b"--scheme none,sinusoidal,learned,rope"
              in data and b"--epochs 5" in data, "the PNG's parameters name the run")
        check(not os.path.exists(png + ".tmp") and len(os.listdir(d)) == 1, "no temporary left")
        pdf = os.path.join(d, "ot.pdf")
        run("--export", pdf, "--figure", "order-training", "--order-pairs", "100,30",
            "--epochs", "5")
        check(open(pdf, "rb").read(5) == b"%PDF-", "a PDF")


def main():
    global TFVIZ
    TFVIZ, group = sys.argv[1], sys.argv[2]
    return run_group(globals(), group)


if __name__ == "__main__":
    sys.exit(main())
