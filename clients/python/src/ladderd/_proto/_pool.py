"""The descriptor pool of ladderd's generated code (scripts/generate.py).

Not protobuf's default pool: an app may generate ladder/v1/ladder.proto
itself, and its copy must not collide with this one.
"""

from google.protobuf import descriptor_pool

POOL = descriptor_pool.DescriptorPool()
