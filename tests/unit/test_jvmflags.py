"""Reading the JVM's answer to an option: refused, warned or accepted, and its value now."""
from tuninglab import jvmflags


def test_an_unrecognized_option_is_refused_with_the_jvms_words():
    out = ("Unrecognized VM option 'AggressiveOpts'\nError: Could not create the Java Virtual "
           "Machine.\nError: A fatal exception has occurred. Program will exit.\n")
    answer = jvmflags.classify("-XX:+AggressiveOpts", 1, out)
    assert answer == {"answer": "refused", "message": "Unrecognized VM option 'AggressiveOpts'",
                      "final_value": None}


def test_an_accepted_option_reports_its_final_value():
    out = ("     bool DoEscapeAnalysis                         = true      {C2 product} {default}\n"
           "openjdk version \"21.0.13\" 2026-10-20\n")
    answer = jvmflags.classify("-XX:+DoEscapeAnalysis", 0, out)
    assert answer["answer"] == "accepted" and answer["final_value"] == "true"


def test_a_warning_is_kept():
    out = ("[0.001s][warning][pagesize] UseLargePages disabled, no large pages configured and "
           "available on the system.\n     bool UseLargePages = false {pd product} {command line}\n")
    answer = jvmflags.classify("-XX:+UseLargePages", 0, out)
    assert answer["answer"] == "warned" and "no large pages configured" in answer["message"]
    assert answer["final_value"] == "false"


def test_the_flags_file_names_an_option_and_a_section_for_each_entry():
    flags = jvmflags.load_flags()
    assert flags and all(f["option"].startswith("-XX:") and f["section"] for f in flags)


def test_a_flag_row_whose_name_holds_error_is_not_a_warning():
    # The stored probe of 2026-11-25 17:06 called -XX:+UseCompressedOops "warned" on this row.
    out = ("     bool CrashOnOutOfMemoryError                  = false          {product} {default}\n"
           "     bool UseCompressedOops                       := true           {product} {command line}\n"
           "openjdk version \"21.0.9\" 2025-10-21\n")
    answer = jvmflags.classify("-XX:+UseCompressedOops", 0, out)
    assert answer == {"answer": "accepted", "message": "", "final_value": "true"}
