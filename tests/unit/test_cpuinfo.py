"""A machine's CPU model as its kernel reports it, on x86 and on arm64 (which names no model)."""
from tuninglab import cpuinfo

X86 = """processor\t: 0
vendor_id\t: AuthenticAMD
model\t\t: 1
model name\t: AMD EPYC 7B13
processor\t: 1
model name\t: AMD EPYC 7B13
"""
ARM64 = """processor\t: 0
BogoMIPS\t: 50.00
CPU implementer\t: 0x41
CPU part\t: 0xd0c
"""


def test_the_model_name_of_the_first_processor():
    assert cpuinfo.model(X86) == "AMD EPYC 7B13"


def test_an_arm64_kernel_gives_its_implementer_and_part():
    assert cpuinfo.model(ARM64) == "implementer 0x41, part 0xd0c"


def test_nothing_to_go_by_is_unknown():
    assert cpuinfo.model("") == "unknown"
    assert cpuinfo.model("processor\t: 0\n") == "unknown"
