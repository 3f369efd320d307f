"""Operation counts of Featherstone §10.3 (Table 10.1, eqs. 10.2–10.12)."""

from fractions import Fraction

import numpy as np
import pytest

from spatial import builders, cost


def test_table_10_1_has_every_row_with_a_source():
    counts = {a: sum(r.algorithm == a for r in cost.TABLE_10_1) for a in ("RNEA", "CRBA", "ABA")}
    assert counts == {"RNEA": 4, "CRBA": 5, "ABA": 3}
    assert all(row.source for row in cost.TABLE_10_1)
    # the first row of each algorithm is the one Fig. 10.4 plots; it is the cheapest row for
    # every n, except that Balafoutis and Patel's CRBA (row 4) costs fewer m + a below n = 33
    n = np.arange(1, 80)
    for name in ("RNEA", "CRBA", "ABA"):
        rows = [r for r in cost.TABLE_10_1 if r.algorithm == name]
        best = rows[0].cost(n).total
        for k, row in enumerate(rows[1:], start=1):
            cheaper = n[row.cost(n).total < best]
            expected = np.arange(1, 33) if (name, k) == ("CRBA", 3) else []
            assert np.array_equal(cheaper, expected), (name, k)
    # e.g. at n = 7: (16·49 + 59·7 - 75) = 1122 versus (16.5·49 + 43.5·7 - 96) = 1017
    assert cost.table_10_1_cost("CRBA", 7).total == 1122
    assert cost.table_10_1_cost("CRBA", 7, version=3).total == 1017


def test_book_crossovers_of_fig_10_4():
    """O(n³) slightly cheaper than ABA for n ≤ 8, about 1.6× at n = 18, F&S passes CRBA near 45."""
    n = np.arange(2, 80)  # at n = 1 the RNEA and ABA rows go negative (-15m - 19a, -35m - 43a)
    c = cost.gu_costs(n)
    ratio = c["O(n^3)"].total / c["ABA"].total
    assert np.all(ratio[n <= 8] < 1) and np.all(ratio[n >= 9] > 1)
    assert round(float(ratio[n == 18][0]), 1) == 1.6
    crossing = n[np.argmax(c["F&S"].total > c["CRBA"].total)]
    assert 43 <= crossing <= 47
    # "F&S is the smallest term when n ≤ 18"
    smallest = np.minimum(c["RNEA"].total, c["CRBA"].total)
    assert np.all(c["F&S"].total[n <= 18] < smallest[n <= 18])


def test_the_published_rows_go_negative_at_n_1():
    assert cost.table_10_1_cost("RNEA", 1) == cost.Cost(-15, -19)
    assert cost.table_10_1_cost("ABA", 1) == cost.Cost(-35, -43)


def test_fs_row_by_hand_for_small_n():
    # n = 1: one division for D and one for the solve; n = 2: Table 6.6 by hand
    assert cost.table_10_1_cost("F&S", 1) == cost.Cost(1, 0)
    assert cost.ltdl_cost(np.arange(2) - 1) == cost.table_10_1_cost("F&S", 2)


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_eq_10_2_with_axial_screws_is_eq_10_3(n):
    assert cost.crba_cost_chain(n) == cost.table_10_1_cost("CRBA", n)
    assert cost.crba_cost(np.arange(n) - 1) == cost.table_10_1_cost("CRBA", n)
    assert cost.crba_cost(builders.gu_chain(n)) == cost.table_10_1_cost("CRBA", n)


def test_eq_10_12_counts_by_hand_on_a_small_tree():
    # base - 0 - {1 - 3, 2}: bodies 1 and 2 are children of 0, 3 of 1
    lam = [-1, 0, 0, 1]
    c = cost.crba_counts(lam)
    # line 7 runs for bodies 1, 2, 3; line 13 for the ancestor pairs (1,0), (2,0), (3,1), (3,0)
    assert (c.D0, c.D1) == (3, 4)
    # body 1 is 0's first child (DH), body 2 its sibling (general), body 3 1's first child (DH)
    assert (c.D0_dh, c.D0_g, c.D1_dh, c.D1_g) == (2, 1, 3, 1)
    expected = 3 * cost.RA + 2 * cost.RX_DH + cost.RX_G + 3 * cost.VX_DH + cost.VX_G
    assert cost.crba_cost(lam) == expected
    # eq. 10.5 read directly: Σ (|κ(i)| - 1) over a model's supports
    model = builders.branched_tree(15, branching_factor=2)
    direct = sum(len(model.support(i)) - 1 for i in range(1, 16))
    assert cost.crba_counts(model).D1 == direct
    assert cost.crba_counts(model).D0 == 15 - len(model.children(0))


def test_all_bodies_on_the_base_cost_nothing():
    assert cost.crba_cost([-1, -1, -1]) == cost.Cost(0, 0)


def test_ltdl_cost_counts_the_loops_of_tables_6_3_and_6_5():
    """Walk the loops of the sparse LᵀDL factorization and solve and count what each line does."""
    lam = [-1, 0, 1, 1, 0, 4, 5, -1, 7]
    mul = add = 0
    for k in range(len(lam)):  # Table 6.3 (LᵀDL): for each ancestor i of k, one division
        i = lam[k]
        while i != -1:
            mul += 1
            j = i
            while j != -1:  # and one multiply-add per ancestor j of i (j = i included)
                mul, add = mul + 1, add + 1
                j = lam[j]
            i = lam[i]
    for k in range(len(lam)):  # Table 6.5: a multiply-add per stored L entry, in each solve
        i = lam[k]
        while i != -1:
            mul, add = mul + 2, add + 2
            i = lam[i]
    mul += len(lam)  # and one division by D per variable
    assert cost.ltdl_cost(lam) == cost.Cost(mul, add)


def test_binary_tree_is_nearly_as_cheap_as_aba():
    """Fig. 10.5: on a binary tree the O(nd²) method costs about what ABA does."""
    for n in (16, 32, 40):
        tree = builders.branched_tree(n, branching_factor=2)
        ratio = cost.inertia_method_cost(tree).total / cost.table_10_1_cost("ABA", n).total
        assert 0.75 < ratio < 1.25
    n = 18
    chain = cost.inertia_method_cost(np.arange(n) - 1)
    assert chain == cost.gu_costs(n)["O(n^3)"]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="algorithm must be one of"):
        cost.table_10_1_cost("RNE", 3)
    with pytest.raises(ValueError, match="has 4 rows for RNEA"):
        cost.table_10_1_cost("RNEA", 3, version=4)
    with pytest.raises(ValueError, match="positive integers"):
        cost.table_10_1_cost("ABA", 0)
    with pytest.raises(ValueError, match="positive integer"):
        cost.crba_cost_chain(2.5)
    with pytest.raises(ValueError, match="one joint variable per body"):
        cost.crba_counts(builders.random_tree(np.random.default_rng(0), 2, joints=("S",)))
    with pytest.raises(ValueError, match="lam"):
        cost.crba_cost([0, 1])


# --------------------------------------------------------------------------- the package's code
# Hand counts from the sizes of the dense products the code performs, independent of the
# symbolic counter: an (r x k) by (k x c) product is rkc multiplications and r(k-1)c additions.


def _product(r, k, c):
    return cost.Cost(r * k * c, r * (k - 1) * c)


def _adds(k):
    return cost.Cost(0, k)


# one body of the RNEA (Table 5.1) as spatial.rnea computes it, by line, for a body whose parent
# moves (body 1 multiplies the base's numeric v_0 = 0 and a_0 = -a_g: products of plain numbers
# are not counted).  The transforms are applied as rot(E) (xlt(r) v), two 6x6 products; f_i
# as I (a + w × v) + w ×* (I w) with w = [ω; 0] (I w: the 6x3 columns of I times ω)
RNEA_BODY = {
    # [cos, sin] @ K, + K_0, less the 9 entries of the lower-left block that rot(E) zeroes
    "ⁱX_λ(i) = X_J X_T(i)": _product(1, 2, 36) + _adds(36) + cost.Cost(-18, -18),
    "[X_J, S_i, v_J, c_J] = jcalc": _product(6, 1, 1),  # v_J = S q̇
    "v_i =": 2 * _product(6, 6, 1) + _adds(6),
    "v_i ×": _product(1, 6, 36),  # v @ (6, 36) basis
    "a_i =": 3 * _product(6, 6, 1) + _product(6, 1, 1) + _adds(12),
    "f_i =": 3 * _product(6, 6, 1) + _product(6, 3, 1) + _adds(12),
    "τ_i": _product(1, 6, 1),
    "f_λ(i)": 2 * _product(6, 6, 1) + _adds(6),
}


def _sum(costs):
    return sum(costs, cost.Cost(0, 0))


def test_dense_rnea_counts_equal_the_product_sizes():
    """Each line's cost grows by the product sizes of one body from GU(2) to GU(3)."""
    lines = {n: cost.dense_lines("RNEA", n) for n in (2, 3)}
    assert _sum(RNEA_BODY.values()) == cost.Cost(666, 587)
    for key, per_body in RNEA_BODY.items():
        found = {}
        for n in (2, 3):
            matching = [line for line in lines[n] if line.book.startswith("Table 5.1: " + key)]
            found[n] = _sum(line.cost for line in matching)
        assert found[3] + (-1) * found[2] == per_body, key
    assert cost.dense_cost("RNEA", 3) + (-1) * cost.dense_cost("RNEA", 2) == cost.Cost(666, 587)


def test_dense_crba_and_aba_counts_equal_the_product_sizes():
    n = 3
    transforms = n * (_product(1, 2, 36) + _adds(36))
    # CRBA: the transforms, less the lower-left blocks of ^iX_λ(i) that the factored form
    # never reads (9 entries of [cos, sin] @ K + K_0 each); line 7 ((n-1) compact transforms
    # of Table A.4's X^T I X, below, and a 6x6 sum); line 13 (n(n-1)/2 times two 6x6 times 6x1
    # products, rot(E)ᵀ then xlt(r)ᵀ); the selections with S = e_3 are free
    skew = _product(1, 3, 9)  # a 3-vector times the (3, 9) basis of eq. 2.23
    rx = (
        _product(1, 3, 3)  # y = Eᵀ h
        + cost.Cost(3, 3)  # y + m r
        + 2 * skew  # (y + m r)×, y×
        + 2 * _product(3, 3, 3)  # Eᵀ Ī E
        + 2 * _product(3, 3, 3)  # r× y×, (y + m r)× r×
        + _adds(18)  # the two subtractions (m 1 is written in place: no products)
        + _adds(36)  # I^c_λ(i) + …
    )
    crba = (
        transforms
        + n * cost.Cost(-18, -18)
        + (n - 1) * rx
        + (n * (n - 1) // 2) * (2 * _product(6, 6, 1))
    )
    assert cost.dense_cost("CRBA", n) == crba
    # ABA, Table 7.1 by pass: per body in pass 1 v_J = q̇ S, v× (1x6 times 6x36), I v and the
    # two einsum products c = v× v_J and p^A = v×ᵀ (I v) (6 terms summed from 0: 36m + 36a),
    # per non-root body v = X v_λ + v_J; per non-root body in pass 2 I^a (6 divisions, outer
    # product, 6x6 sum), p^a, the two (factored) transforms; per body in pass 3 a', q̈ (6x1 dot,
    # subtraction, division), a
    einsum = cost.Cost(36, 36)
    pass1 = _product(6, 1, 1) + _product(1, 6, 36) + _product(6, 6, 1) + 2 * einsum
    v_up = _product(6, 6, 1) + _adds(6)
    u = _adds(1)
    I_a = cost.Cost(6, 0) + _product(6, 1, 6) + _adds(36)
    p_a = _product(6, 6, 1) + cost.Cost(1, 0) + _product(6, 1, 1) + _adds(12)
    # the two transforms to the parent as rot(E) then xlt(r), each on both sides of I^a
    up = 4 * _product(6, 6, 6) + _adds(36) + 2 * _product(6, 6, 1) + _adds(6)
    pass3 = _product(6, 6, 1) + _adds(6) + _product(1, 6, 1) + cost.Cost(1, 1)
    pass3 += _product(6, 1, 1) + _adds(6)
    aba = transforms + n * (pass1 + u + pass3) + (n - 1) * (v_up + I_a + p_a + up)
    assert cost.dense_cost("ABA", n) == aba
    for name in ("CRBA", "ABA"):
        lines = cost.dense_lines(name, n)
        assert _sum(line.cost for line in lines) == cost.dense_cost(name, n)
        assert all(not line.book.startswith("not in") for line in lines), name


def test_dense_rows_are_polynomials_in_n():
    """The rows fitted at n = 1, 2, 3 predict the counts at n = 5."""
    for name in ("RNEA", "CRBA", "ABA"):
        counted = _sum(line.cost for line in cost.dense_lines(name, 5))
        assert cost.dense_cost(name, 5) == counted
    assert cost.dense_row("RNEA").mul[:2] == (0, 666)
    assert cost.dense_row("CRBA").mul[0] == 36  # 72m for each of n(n - 1)/2 runs of line 13
    assert np.array_equal(np.diff(cost.dense_cost("RNEA", np.array([2, 3])).mul), [666])


def test_dense_counts_bad_input_is_named():
    with pytest.raises(ValueError, match="algorithm must be one of"):
        cost.dense_lines("F&S", 3)
    with pytest.raises(ValueError, match="positive integer"):
        cost.dense_lines("RNEA", 0)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        cost.dense_row("rnea")


def test_counts_and_indices_are_integers():
    with pytest.raises(ValueError, match="version must be an integer, got the bool True"):
        cost.table_10_1_cost("RNEA", 3, version=True)  # rows[True] was row 1
    with pytest.raises(ValueError, match=r"dh \(0-based body numbers\)\[0\] must be an integer"):
        cost.crba_counts([-1, 0, 1], dh=[1.5])  # int(1.5) was body 1
    with pytest.raises(ValueError, match=r"must be an integer in \[0, 2\], got 99"):
        cost.crba_counts([-1, 0, 1], dh=[99])  # silently ignored before
    with pytest.raises(ValueError, match="n must be a positive integer, got the bool True"):
        cost.crba_cost_chain(True)
    with pytest.raises(ValueError, match="n must be a positive integer, got 7.0"):
        cost.dense_lines("RNEA", 7.0)
    with pytest.raises(TypeError, match="ra must be a Cost, got int 5"):
        cost.crba_cost_chain(3, ra=5)
    with pytest.raises(ValueError, match="Cost.mul must be an integer count"):
        cost.Cost(1.5, 2)
    with pytest.raises(ValueError, match="Cost.mul must be an integer count .* got 2.5"):
        2.5 * cost.Cost(1, 2)  # half an operation
    assert 3 * cost.Cost(1, 2) == cost.Cost(3, 6)
    assert cost.Cost(-15, -19).total == -34  # Table 10.1 at n = 1 (a note in the book)


def test_redmax_count_is_the_traced_code_plus_an_lu_solve():
    # the cubic fitted on n = 1 … 4 predicts the traced count at n = 5 exactly
    before_solve = cost.redmax_cost(5) + (-1) * cost.LU_SOLVE.cost(5)
    traced = cost.traced._redmax_traced(5)
    assert (before_solve.mul, before_solve.add) == (traced.mul, traced.add)
    # leading term: the 6n³ of J_mrᵀ (M_m J_mr) plus the n³/3 of the LU factorization
    assert cost.redmax_row().mul[0] == Fraction(19, 3)
    # LU solve by hand: n = 1 is one division; n = 2: 1 multiplier, 1 update, 1 forward, 1 back
    # multiplication and 2 divisions; 1 + 1 + 1 additions
    assert cost.LU_SOLVE.cost(1).mul == 1 and cost.LU_SOLVE.cost(1).add == 0
    assert cost.LU_SOLVE.cost(2).mul == 6 and cost.LU_SOLVE.cost(2).add == 3


def test_redmax_outgrows_the_aba():
    n = np.array([2, 4, 8, 16, 32, 64, 128])
    ratio = cost.redmax_cost(n).total / cost.dense_cost("ABA", n).total
    assert np.all(ratio > 1) and np.all(np.diff(ratio[1:]) > 0) and ratio[-1] > 50
    with pytest.raises(ValueError, match="positive"):
        cost.redmax_cost(0)


def test_method_costs_of_a_chain_are_the_curves_of_fig_10_4():
    for n in (2, 8, 18, 40):
        costs = cost.method_costs(n)
        gu = cost.gu_costs(n)
        assert costs["RNEA"] == gu["RNEA"] and costs["ABA"] == gu["ABA"]
        assert costs["CRBA"] == gu["CRBA"] and costs["LᵀDL"] == gu["F&S"]
        assert costs["CRBA + LᵀDL"] == gu["O(n^3)"]


def test_method_costs_of_a_binary_tree_count_its_connectivity():
    n = 40
    tree = builders.branched_tree(n, branching_factor=2)
    costs = cost.method_costs(n, branching_factor=2)
    assert costs["CRBA"] == cost.crba_cost(tree) and costs["LᵀDL"] == cost.ltdl_cost(tree)
    assert costs["CRBA + LᵀDL"] == cost.inertia_method_cost(tree)
    assert costs["ABA"] == cost.table_10_1_cost("ABA", n)  # the ABA's count depends on n only
    # the branches make the inertia-matrix method far cheaper than on the chain
    assert costs["CRBA + LᵀDL"].total < cost.method_costs(n)["CRBA + LᵀDL"].total / 3


def test_method_costs_bad_input_is_named():
    for n in (1, 2.5, True, 0):
        with pytest.raises(ValueError, match="n must be an integer"):
            cost.method_costs(n)
    with pytest.raises(ValueError, match="branching_factor"):
        cost.method_costs(5, branching_factor=0.5)
