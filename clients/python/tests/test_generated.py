"""The committed generated code is what scripts/generate.py makes from
proto/ today, and an app's own copy of the proto does not clash with it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
REPO = PACKAGE.parents[1]


def test_the_committed_generated_code_is_fresh() -> None:
    out = subprocess.run([sys.executable, str(PACKAGE / "scripts" / "generate.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, f"{out.stdout}\n{out.stderr}"


def test_an_app_that_generated_another_version_of_the_proto_imports_both(tmp_path: Path) -> None:
    """The app's copy (here: the same file name and package, one field
    more) sits in protobuf's default pool; ladderd's in its own."""
    proto = (REPO / "proto" / "ladder" / "v1" / "ladder.proto").read_text()
    changed = proto.replace("message GetSessionRequest {\n  string session_id = 1;\n", "message GetSessionRequest {\n  string session_id = 1;\n  string app_only = 99;\n")
    assert changed != proto
    (tmp_path / "proto" / "ladder" / "v1").mkdir(parents=True)
    (tmp_path / "proto" / "ladder" / "v1" / "ladder.proto").write_text(changed)
    (tmp_path / "gen").mkdir()
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{tmp_path / 'proto'}", f"--python_out={tmp_path / 'gen'}", "ladder/v1/ladder.proto"],
        check=True,
    )
    script = textwrap.dedent(
        """
        from ladder.v1 import ladder_pb2 as app_pb      # the app's own, first
        import ladderd
        from ladderd import pb
        assert "app_only" in app_pb.GetSessionRequest.DESCRIPTOR.fields_by_name
        assert "app_only" not in pb.GetSessionRequest.DESCRIPTOR.fields_by_name
        # The two copies speak the same wire format.
        sent = app_pb.DecideRequest(session_id="s", input="hi")
        assert pb.DecideRequest.FromString(sent.SerializeToString()).input == "hi"
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path / "gen")})
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize("first", ["ladderd", "app"])
def test_the_import_order_does_not_matter(tmp_path: Path, first: str) -> None:
    (tmp_path / "gen").mkdir()
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{REPO / 'proto'}", f"--python_out={tmp_path / 'gen'}", "ladder/v1/ladder.proto"],
        check=True,
    )
    imports = ["import ladderd.pb", "from ladder.v1 import ladder_pb2"]
    script = "\n".join(imports if first == "ladderd" else imports[::-1]) + "\nprint('ok')\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path / "gen")})
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
