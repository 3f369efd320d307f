"""Operation counts of Featherstone §10.3 (Table 10.1, eqs. 10.2–10.12)."""

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
