"""ladderd's messages and enums (package ladder.v1), generated from
proto/ladder/v1/ladder.proto: `from ladderd.pb import Candidate, OptionSet`."""

from ladderd._proto.ladder.v1.ladder_pb2 import *  # noqa: F401,F403
