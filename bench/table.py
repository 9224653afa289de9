"""table.py — turn the lines the benchmarks printed into one table of figures and ratios.

Input lines (tab-separated; '#' lines are notes and are shown as they are):
  NAME  MEDIAN  UNIT  [MIN  MAX  [GOAL]]          a measurement; GOAL like "<10", "<=1e-6"
  ratio  LABEL  NUMERATOR  DENOMINATOR  [GOAL]      median(NUMERATOR) / median(DENOMINATOR)
A name measured several times (rounds) is reduced to the median of its medians, the smallest
minimum and the largest maximum. A ratio whose names were not measured (a peer not installed) is shown as missing.

  python3 bench/table.py results.tsv
"""
import operator
import sys

OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def meets(value, goal):
    """'yes', 'NO' or '' (no goal)."""
    goal = goal.strip()
    for sym in ("<=", ">=", "<", ">"):
        if goal.startswith(sym):
            return "yes" if OPS[sym](value, float(goal[len(sym):])) else "NO"
    return ""


def main(path):
    metrics, ratios, notes = {}, [], []
    order = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if line.startswith("#"):
                if line not in notes:  # the same note from every round once
                    notes.append(line)
                continue
            p = line.split("\t")
            if p[0] == "ratio" and len(p) >= 4:
                ratios.append((p[1], p[2], p[3], p[4] if len(p) > 4 else ""))
                continue
            try:
                med = float(p[1])
            except (IndexError, ValueError):
                notes.append("# unreadable line: " + line)
                continue
            unit = p[2] if len(p) > 2 else ""
            lo = p[3] if len(p) > 3 and p[3] else p[1]
            hi = p[4] if len(p) > 4 and p[4] else p[1]
            goal = p[5] if len(p) > 5 else ""
            if p[0] not in metrics:
                order.append(p[0])
                metrics[p[0]] = []
            metrics[p[0]].append((med, unit, lo, hi, goal))

    # a name measured in several rounds: the median of the medians, the extremes of the rest
    for name, rows in metrics.items():
        meds = sorted(r[0] for r in rows)
        k = len(meds)
        med = meds[k // 2] if k % 2 else 0.5 * (meds[k // 2 - 1] + meds[k // 2])
        lo = min(rows, key=lambda r: float(r[2]))[2]
        hi = max(rows, key=lambda r: float(r[3]))[3]
        metrics[name] = (med, rows[0][1], lo, hi, rows[0][4])

    for n in notes:
        print(n)
    w = max([len(n) for n in order] + [11])
    print(f"\n{'measurement':<{w}}  {'median':>10}  {'unit':<4}  {'min .. max':<21}  {'goal':<8}  met")
    print("-" * (w + 57))
    for name in order:
        med, unit, lo, hi, goal = metrics[name]
        print(f"{name:<{w}}  {med:>10.4g}  {unit:<4}  {lo + ' .. ' + hi:<21}  {goal:<8}  "
              f"{meets(med, goal) if goal else ''}")

    if ratios:
        w = max(len(r[0]) for r in ratios)
        print(f"\n{'ratio (medians, same run)':<{w}}  {'value':>8}  {'goal':<6}  met  from")
        print("-" * (w + 50))
        for label, num, den, goal in ratios:
            if num in metrics and den in metrics and metrics[den][0] > 0:
                v = metrics[num][0] / metrics[den][0]
                print(f"{label:<{w}}  {v:>8.3g}  {goal:<6}  {meets(v, goal) if goal else '':<3}  "
                      f"{num} / {den}")
            else:
                miss = [x for x in (num, den) if x not in metrics]
                print(f"{label:<{w}}  {'-':>8}  {goal:<6}  -    not measured: {', '.join(miss)}")


if __name__ == "__main__":
    main(sys.argv[1])
