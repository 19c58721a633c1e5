"""Generated diversity files for the tests of irlab eval --diversity (test_eval_diversity, test_diversity_arrays)."""


def faulty_lines(rnd, what):
    """A diversity qrels or run file's bytes: mostly plain lines, with blank and comment lines, '\\r\\n' ends,
    tabs, extra or missing fields, bad numbers, long ids and lines, repeats, now and then (often none)."""
    fault = rnd.choice([0.0, 0.0, 0.05, 0.3, "one"])
    lines = rnd.randint(0, 60)
    # one fault alone (the bulk reading must see it), often near the start where blank lines outnumber data lines
    the_one = rnd.randrange(min(lines, rnd.choice([4, 60]))) if fault == "one" and lines else None
    out = []
    for number in range(lines):
        t, d = rnd.choice(["1", "2", "10", "wt-3"]), rnd.choice(["a", "b", "c", "d", "e", "f", "x#y", "#h"])
        if what == "qrels":
            fields = [t, rnd.choice(["1", "2", "3", "s"]), d, rnd.choice(["0", "1", "2", "1", "1"])]
        else:
            fields = [t, "Q0", d, str(rnd.randint(0, 60)), rnd.choice(["1", "0.5", "-2e3", ".5", "3.", "-0"]), "run"]
        if number == the_one or (fault != "one" and rnd.random() < fault):
            kind = rnd.randrange(9)
            if kind == 0:
                fields[3] = rnd.choice(["-1", "1.5", "1" * 16, "x", "nan", "+1", "1_0", "\u0661".encode().decode()])
            elif kind == 1 and what == "run":
                fields[4] = rnd.choice(["nan", "inf", "1_0", "x", "1e999", "-infinity"])
            elif kind == 2:
                fields = fields[:rnd.randint(1, 5)]
            elif kind == 3:
                fields.append("extra")
            elif kind == 4:
                fields[rnd.choice([0, 1, 2])] = "z" * rnd.choice([12, 13])
            elif kind == 5:
                fields = ["w" * rnd.randint(38, 44)]
            elif kind == 6:
                out.append(rnd.choice(["\n", " \n", "\r\n"]) * rnd.randint(1, 8))
            elif kind == 7:
                fields[0] = "#" + fields[0]   # a comment line with the fields of a data line
            else:
                fields[-1] += " " * rnd.randint(10, 30)   # a long line of a data line's fields
        line = rnd.choice([" ", " ", "\t", "  ", " \x0b"]).join(fields)
        out.append((" " if rnd.random() < 0.1 else "") + line + rnd.choice(["\n"] * 8 + ["\r\n", "\r\r\n"]))
        if fault != "one" and rnd.random() < 0.05:
            out.append(rnd.choice(["\n", "  \n", "\r\n"]))
    text = "".join(out)
    return (text.rstrip("\n") if rnd.random() < 0.2 else text).encode()
