"""Shared test configuration.

Test modules never import each other: shared fixtures live in plain helper modules imported
relatively (``tests`` is a package, so pytest puts the repository root on ``sys.path``):
``games.py`` (hand-checked rounds), ``reference.py`` (the exhaustive reference solver),
``documents.py`` (hand-written files), ``clirun.py`` (the CLI in-process).

Hypothesis runs derandomized (the same examples on every run: a red test stays red, a green one
never flakes) and without deadlines (tests never assert wall-clock limits).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("catbox", derandomize=True, deadline=None, database=None)
settings.load_profile("catbox")


# The quick lane (`make quick`, `pytest -m "not slow"`): these tests take a second or more
# (measured with `pytest --durations`: cross-checks over many positions, whole commands, the
# README's tour), by test id, or by test function for all its parameters. A new test that takes
# a second goes here too. CI runs everything (`make test`).
SLOW = frozenset(
    {
        "test_advise_cli.py::test_advise_json_shape",
        "test_advise_cli.py::test_advise_round_start",
        "test_advise_cli.py::test_review_from_the_players_view",
        "test_analysis.py::test_forced_answers_are_consistent_with_possible_ones[5]",
        "test_analysis.py::test_paradox_only_search_agrees_with_the_full_one[hide0]",
        "test_analysis.py::test_paradox_only_search_agrees_with_the_full_one[hide2]",
        "test_analysis.py::test_reports_agree_with_reference[4-3-1]",
        "test_analysis.py::test_reports_agree_with_reference[5-0-2]",
        "test_board.py::test_groups_partition_the_seat_tokens",
        "test_cli.py::test_every_command_has_help",
        "test_cli_analysis.py::test_review_json_gives_every_play_a_verdict",
        "test_cli_analysis.py::test_tiny_time_limit_in_analyze_gives_bounds_never_a_lie",
        "test_cli_analysis.py::test_tiny_time_limit_in_tricks_and_paradox",
        "test_cli_analysis.py::test_tricks_and_paradox_json_shape_and_values[small2]",
        "test_cooperative_search.py::test_lazy_red_leads_and_dead_deals",
        "test_cooperative_search.py::test_moves_match_the_rules_engine[3]",
        "test_cooperative_search.py::test_moves_match_the_rules_engine[4]",
        "test_cooperative_search.py::test_moves_match_the_rules_engine[5]",
        "test_cooperative_search.py::test_search_engines_avoid_question_agrees_with_the_cooperative_search",
        "test_cpsat_builders.py::test_deals_reject_more_copies_than_are_unseen",
        "test_cpsat_builders.py::test_every_real_line_is_accepted[False]",
        "test_cpsat_builders.py::test_every_real_line_is_accepted[True]",
        "test_cpsat_builders.py::test_winners_fix_the_trick_count",
        "test_doctests.py::test_doctests[catbox.solver.estimates.review]",
        "test_doctests.py::test_doctests[catbox.solver.estimates.start]",
        "test_errors.py::test_no_cli_words_in_library_messages",
        "test_estimates_advise.py::test_exact_pimc_matches_reference[3-4-2]",
        "test_estimates_advise.py::test_player_view_review_judges_every_play_of_the_seat",
        "test_estimates_advise.py::test_round_start_advisor_is_the_same_for_any_workers",
        "test_estimates_advise.py::test_round_start_advisor_ranks_every_candidate",
        "test_estimates_advise.py::test_sampled_answer_is_the_same_for_any_workers",
        "test_estimates_deals.py::test_enumeration_weights_are_physical_arrangements[4-3-1]",
        "test_estimates_deals.py::test_sampler_frequencies_match_weights[2-1-1]",
        "test_estimates_deals.py::test_sampler_frequencies_match_weights[2-3-1]",
        "test_estimates_deals.py::test_sampler_frequencies_match_weights[3-2-1]",
        "test_estimates_policy.py::test_policy_beats_random_on_a_small_sample",
        "test_estimates_policy.py::test_sim_matches_position[catbox-4]",
        "test_estimates_policy.py::test_sim_matches_position[catbox-5]",
        "test_formats.py::test_deal_starts_round_trip",
        "test_formats.py::test_finished_and_paradox_positions_round_trip",
        "test_formats.py::test_random_positions_round_trip",
        "test_formats.py::test_records_round_trip",
        "test_formats_corruption.py::test_arbitrary_text_raises_only_catbox_errors",
        "test_formats_corruption.py::test_corrupted_files_raise_only_catbox_errors",
        "test_formats_corruption.py::test_corrupted_position_strings_raise_only_catbox_errors",
        "test_invariants.py::test_I2_I3_paradox_free_rounds_fill_the_board",
        "test_invariants.py::test_I4_what_a_player_may_use_only_shrinks",
        "test_invariants.py::test_I5_no_paradox_in_trick_1",
        "test_invariants.py::test_invariants_of_every_position",
        "test_possible.py::test_determinism",
        "test_possible.py::test_engines_agree[10]",
        "test_possible.py::test_engines_agree[11]",
        "test_possible.py::test_engines_agree[14]",
        "test_possible.py::test_engines_agree[15]",
        "test_possible.py::test_engines_agree[6]",
        "test_possible.py::test_engines_agree[8]",
        "test_possible.py::test_engines_agree[9]",
        "test_possible.py::test_fast_legality_matches_rules",
        "test_possible.py::test_matches_reference[151-search]",
        "test_possible.py::test_matches_reference[170-search]",
        "test_possible.py::test_matches_reference[175-search]",
        "test_puzzle_format.py::test_puzzles_round_trip",
        "test_puzzlegen.py::test_cli_generate_prints_writes_and_refuses",
        "test_puzzlegen.py::test_generate_is_deterministic_and_proven[4-5-paradox-free-round-None-2]",
        "test_puzzles.py::test_puzzle_answer_is_proven[dark-matter]",
        "test_puzzles.py::test_small_puzzles_match_the_reference[behind-the-curtain]",
        "test_random_position.py::test_positions_are_running_valid_and_deterministic[4]",
        "test_random_position.py::test_positions_are_running_valid_and_deterministic[5]",
        "test_readme.py::test_readme_block_matches_real_output[README:104]",
        "test_readme.py::test_readme_block_matches_real_output[README:187]",
        "test_readme.py::test_readme_block_matches_real_output[README:78]",
        "test_review.py::test_every_play_gets_a_verdict_and_forced_answers_only_near_the_end",
        "test_review.py::test_possible_verdicts_agree_with_reference",
        "test_review.py::test_turning_point_of_a_paradox_round",
        "test_rules.py::test_L3_encodings_agree_on_random_playouts",
        "test_search.py::test_agrees_with_reference[3-1-2-5]",
        "test_search.py::test_agrees_with_reference[3-3-1-3]",
        "test_search.py::test_agrees_with_reference[4-1-3-4]",
        "test_search.py::test_agrees_with_reference[5-2-0-3]",
        "test_search.py::test_agrees_with_reference[5-2-2-3]",
        "test_search.py::test_never_stuck_certificate_is_sound",
        "test_search.py::test_para_agrees_with_reference[3-3-0]",
        "test_search.py::test_para_agrees_with_reference[3-3-1]",
        "test_search.py::test_para_agrees_with_reference[3-3-2]",
        "test_search.py::test_para_agrees_with_reference[4-3-3]",
        "test_search.py::test_para_agrees_with_reference[5-1-0]",
        "test_search.py::test_paradox_allowance_goal_agrees_with_reference[5-2-0]",
        "test_search.py::test_s_plays_bound_is_sound",
        "test_search.py::test_unknown_prediction_agrees_with_reference",
        "test_search.py::test_value_windows_agree_with_reference[4-2-0]",
        "test_search_bounds.py::test_bounds_switches_keep_every_answer[4]",
        "test_search_bounds.py::test_bounds_switches_keep_every_answer[5]",
        "test_search_bounds.py::test_static_bounds_claims_match_the_full_search[2]",
        "test_search_bounds.py::test_static_bounds_claims_match_the_full_search[3]",
        "test_search_bounds.py::test_static_bounds_claims_match_the_full_search[4]",
        "test_search_bounds.py::test_static_bounds_claims_match_the_full_search[5]",
        "test_search_native.py::test_every_answer_family_agrees_with_python[2-4-500]",
        "test_search_native.py::test_every_answer_family_agrees_with_python[3-4-600]",
        "test_search_native.py::test_every_answer_family_agrees_with_python[4-3-500]",
        "test_search_native.py::test_every_answer_family_agrees_with_python[4-4-30]",
        "test_search_native.py::test_every_answer_family_agrees_with_python[5-2-600]",
        "test_search_native.py::test_every_answer_family_agrees_with_python[5-3-50]",
        "test_search_native.py::test_mirrored_rows_match_their_own_search[3-6-39-0]",
        "test_search_native.py::test_movegen_matches_rules_engine[3]",
        "test_search_native.py::test_movegen_matches_rules_engine[4]",
        "test_search_native.py::test_movegen_matches_rules_engine[5]",
        "test_search_native.py::test_native_agrees_with_reference[2]",
        "test_search_native.py::test_native_agrees_with_reference[3]",
        "test_search_native.py::test_native_agrees_with_reference[4]",
        "test_search_native.py::test_native_agrees_with_reference[5]",
        "test_search_native.py::test_proof_number_search_agrees_with_alpha_beta[2]",
        "test_search_native.py::test_proof_number_search_agrees_with_alpha_beta[3]",
        "test_search_native.py::test_proof_number_search_agrees_with_alpha_beta[4]",
        "test_search_native.py::test_proof_number_search_agrees_with_alpha_beta[5]",
        "test_search_state.py::test_fresh_deals_played_out",
        "test_search_state.py::test_packed_state_matches_rules_engine[2-1-1]",
        "test_search_state.py::test_packed_state_matches_rules_engine[3-1-2]",
        "test_search_state.py::test_packed_state_matches_rules_engine[4-1-3]",
        "test_search_state.py::test_packed_state_matches_rules_engine[5-1-4]",
        "test_session.py::test_two_threads_on_two_sessions_get_the_single_threaded_answers",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        where = item.path.relative_to(here).as_posix()
        name = getattr(item, "originalname", item.name)
        if f"{where}::{item.name}" in SLOW or f"{where}::{name}" in SLOW:
            item.add_marker(pytest.mark.slow)
