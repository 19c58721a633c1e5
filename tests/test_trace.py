from fractions import Fraction as F

from irlab.trace import Traced, formula, maximum, mean, steps, substitution, total


def test_named_node_records_formula_and_substitution():
    hits, k = Traced(2, "hits"), Traced(4, "k")
    p = (hits / k).named("P@4", "Precision at 4")
    assert p.value == F(1, 2)
    assert formula(p) == "hits / k"
    assert substitution(p) == "2 / 4"
    assert formula(p, "latex") == r"\frac{\mathrm{hits}}{k}"


def test_fractions_are_parenthesised_as_factors():
    s = Traced(F(21, 10), "S")
    r = Traced(5, "R")
    ap = (s / r).named("AP", "Average precision")
    assert substitution(ap) == "(21/10) / 5"
    assert ap.value == F(21, 50)


def test_steps_are_collected_in_dependency_order_and_leaves_once():
    a = Traced(3, "a", "first")
    b = Traced(3, "a", "first")  # the same fact stated twice
    c = (a + b).named("c", "sum")
    d = (c * 2).named("d", "double")
    assert [n.symbol for n in steps(d)] == ["a", "c", "d"]
    assert d.value == 12


def test_total_mean_and_maximum():
    values = [Traced(F(1, 2), "x_1"), Traced(F(1, 3), "x_2")]
    assert total(values).value == F(5, 6)
    m = mean(values, "m", "mean")
    assert m.value == F(5, 12)
    assert formula(m) == "(x_1 + x_2) / 2"
    assert maximum(values).value == F(1, 2)


def test_subtraction_keeps_right_operand_grouped():
    x = Traced(1) - (Traced(F(1, 2), "a") - Traced(F(1, 4), "b"))
    assert formula(x.named("y", "y")) == "1 - (a - b)"
    assert x.value == F(3, 4)


def test_symbolic_operands_are_parenthesised_once():
    from irlab import exact

    quotient = Traced(exact.div(exact.add(7, exact.div(3, exact.log2(3))), exact.add(2, exact.log2(3))), "x")
    assert exact.exact_text(quotient.value) == "(7 + 3/log2(3))/(log2(3) + 2)"
    # a quotient binds like a product: bracketed as a divisor, bare in a sum
    assert substitution(((quotient + 1) / 2).named("m", "mean")) == "((7 + 3/log2(3))/(log2(3) + 2) + 1) / 2"
    assert substitution((1 / quotient).named("i", "inverse")) == "1 / ((7 + 3/log2(3))/(log2(3) + 2))"
    summed = Traced(exact.add(1, exact.log2(3)), "s")
    assert substitution((2 * summed).named("t", "twice")) == "2 · (log2(3) + 1)"


def test_written_keeps_rank_order_and_log_arguments():
    from irlab.trace import log2, written

    terms = [Traced(g) / log2(i + 1) for i, g in enumerate([7, 3, 0, 1, 3], 1)]
    dcg = total(terms, "DCG", "DCG")
    # sympy would write 7 + 3/(log2(3) + 1) + 1/log2(5) + 3/log2(3): reordered, log2(6) rewritten
    assert written(dcg) == "7 + 3/log2(3) + 1/log2(5) + 3/log2(6)"
    assert written(dcg, "latex") == r"7 + \frac{3}{\log_2 3} + \frac{1}{\log_2 5} + \frac{3}{\log_2 6}"
    assert written(1 / log2(951)) == "1/log2(951)"  # not 1/(log2(3) + log2(317))
    ratio = (dcg / total([Traced(7) / log2(2), Traced(3) / log2(3)], "IDCG", "IDCG")).named("nDCG", "nDCG")
    assert substitution(ratio) == "(7 + 3/log2(3) + 1/log2(5) + 3/log2(6)) / (7 + 3/log2(3))"
    assert written(Traced(F(2, 3)) * 3) == "2"  # a rational value is simply its value


def test_a_leaf_with_an_origin_is_written_like_its_computation():
    from irlab.trace import log2, written

    ndcg_q1 = (Traced(3) / log2(6)).named("x", "x")
    leaf = Traced(ndcg_q1.value, "nDCG(q1)", origin=ndcg_q1)
    assert written(leaf) == "3/log2(6)"
    assert substitution(((leaf + 1) / 2).named("m", "mean")) == "(3/log2(6) + 1) / 2"
