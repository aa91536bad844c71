// ladderd public contract. Apps in several languages generate clients from
// this file: never rename or renumber a field that has shipped; add new ones.
import { enumDesc, fileDesc, messageDesc, serviceDesc } from "@bufbuild/protobuf/codegenv2";
/**
 * Describes the file ladder/v1/ladder.proto.
 */
export const file_ladder_v1_ladder = /*@__PURE__*/ fileDesc("ChZsYWRkZXIvdjEvbGFkZGVyLnByb3RvEglsYWRkZXIudjEiQAoIU2NvcGVSZWYSHwoFc2NvcGUYASABKA4yEC5sYWRkZXIudjEuU2NvcGUSEwoLaW5zdGFuY2VfaWQYAiABKAkikwEKCUNhbmRpZGF0ZRIKCgJpZBgBIAEoCRINCgVsYWJlbBgCIAEoCRIQCghzdWJsYWJlbBgDIAEoCRINCgViYWRnZRgEIAEoCRIMCgRraW5kGAUgASgJEgwKBHBhdGgYBiABKAkSDwoHYWxpYXNlcxgHIAMoCRIdCgRyaXNrGAggASgOMg8ubGFkZGVyLnYxLlJpc2sitQEKCU9wdGlvblNldBIVCg1vcHRpb25fc2V0X2lkGAEgASgJEh8KBXNjb3BlGAIgASgOMhAubGFkZGVyLnYxLlNjb3BlEigKCmNhbmRpZGF0ZXMYAyADKAsyFC5sYWRkZXIudjEuQ2FuZGlkYXRlEg8KB3ZlcnNpb24YBCABKAkSFAoMYnlfcmVmZXJlbmNlGAUgASgIEh8KBWFza2VkGAYgASgOMhAubGFkZGVyLnYxLkFza2VkIrQDCg1EZWNpZGVSZXF1ZXN0EhIKCnNlc3Npb25faWQYASABKAkSDwoHdHVybl9pZBgCIAEoCRINCgVpbnB1dBgDIAEoCRIpCgxhY3RpdmVfc2NvcGUYBCABKAsyEy5sYWRkZXIudjEuU2NvcGVSZWYSJQoHb3B0aW9ucxgFIAEoCzIULmxhZGRlci52MS5PcHRpb25TZXQSNgoYcmVjb3ZlcmFibGVfY2hhdF9vcHRpb25zGAYgAygLMhQubGFkZGVyLnYxLkNhbmRpZGF0ZRIqCgx3aWRnZXRfaXRlbXMYByADKAsyFC5sYWRkZXIudjEuQ2FuZGlkYXRlEiYKCGNvbW1hbmRzGAggAygLMhQubGFkZGVyLnYxLkNhbmRpZGF0ZRIaChJmb3JjZV9jbGFyaWZ5X29ubHkYCSABKAgSEAoIbGFuZ3VhZ2UYCiABKAkSNAoGbGFiZWxzGAsgAygLMiQubGFkZGVyLnYxLkRlY2lkZVJlcXVlc3QuTGFiZWxzRW50cnkaLQoLTGFiZWxzRW50cnkSCwoDa2V5GAEgASgJEg0KBXZhbHVlGAIgASgJOgI4ASJVCglDbGFyaWZpZXISEAoIcXVlc3Rpb24YASABKAkSEgoKb3B0aW9uX2lkcxgCIAMoCRIUCgxzdWdnZXN0ZWRfaWQYAyABKAkSDAoEa2luZBgEIAEoCSKdAgoJTGxtUmVwb3J0Eg4KBmNhbGxlZBgBIAEoCBIRCglndWFyZF9oaXQYAiABKAgSEgoKbGF0ZW5jeV9tcxgDIAEoDRIUCgxzdWdnZXN0ZWRfaWQYBCABKAkSEgoKY29uZmlkZW5jZRgFIAEoAhIPCgd2ZXJkaWN0GAYgASgJEg4KBnNoYWRvdxgHIAEoCBIVCg1jb3Jyb2JvcmF0aW9uGAggASgJEhwKFGNvcnJvYm9yYXRpb25fbWV0aG9kGAkgASgJEhgKEGNvcnJvYm9yYXRpbmdfaWQYCiABKAkSHQoVY29ycm9ib3JhdGlvbl92ZXJkaWN0GAsgASgJEiAKGGNvcnJvYm9yYXRpb25fbGF0ZW5jeV9tcxgMIAEoDSJKCgRTdGVwEgwKBHJ1bmcYASABKAkSDwoHb3V0Y29tZRgCIAEoCRIOCgZkZXRhaWwYAyABKAkSEwoLZHVyYXRpb25fdXMYBCABKAQi8AQKCERlY2lzaW9uEhMKC2RlY2lzaW9uX2lkGAEgASgJEiMKB291dGNvbWUYAiABKA4yEi5sYWRkZXIudjEuT3V0Y29tZRIRCgl0YXJnZXRfaWQYAyABKAkSJgoKZGVjaWRlZF9ieRgEIAEoDjISLmxhZGRlci52MS5EZWNpZGVyEi8KCmNvbmZpZGVuY2UYBSABKA4yGy5sYWRkZXIudjEuQ29uZmlkZW5jZUJ1Y2tldBI0ChBhbWJpZ3VpdHlfcmVhc29uGAYgASgOMhoubGFkZGVyLnYxLkFtYmlndWl0eVJlYXNvbhIyCg9mYWxsYmFja19yZWFzb24YByABKA4yGS5sYWRkZXIudjEuRmFsbGJhY2tSZWFzb24SFQoNZXNjYXBlX3JlYXNvbhgIIAEoCRIXCg9oYW5kbGVkX2J5X3RpZXIYCSABKAkSJwoJY2xhcmlmaWVyGAogASgLMhQubGFkZGVyLnYxLkNsYXJpZmllchIdChVuZWVkZWRfZXZpZGVuY2VfdHlwZXMYCyADKAkSIQoDbGxtGAwgASgLMhQubGFkZGVyLnYxLkxsbVJlcG9ydBIVCg1sb29wX2N5Y2xlX2lkGA0gASgJEhwKFGV2aWRlbmNlX2ZpbmdlcnByaW50GA4gASgJEh4KBXRyYWNlGA8gAygLMg8ubGFkZGVyLnYxLlN0ZXASFwoPY29uZmlnX3JldmlzaW9uGBAgASgJEhQKDHBvb2xfdmVyc2lvbhgRIAEoCRImCglmb2xsb3dfdXAYEiABKAsyEy5sYWRkZXIudjEuRm9sbG93VXASDQoFYWJvdXQYEyADKAkiPwoIRm9sbG93VXASJQoEa2luZBgBIAEoDjIXLmxhZGRlci52MS5Gb2xsb3dVcEtpbmQSDAoEdGV4dBgCIAEoCSJYCg1FdmlkZW5jZUJsb2NrEgwKBHR5cGUYASABKAkSKAoKY2FuZGlkYXRlcxgCIAMoCzIULmxhZGRlci52MS5DYW5kaWRhdGUSDwoHZXhjZXJwdBgDIAEoCSKNAQoNRW5yaWNoUmVxdWVzdBISCgpzZXNzaW9uX2lkGAEgASgJEg8KB3R1cm5faWQYAiABKAkSFQoNbG9vcF9jeWNsZV9pZBgDIAEoCRIqCghldmlkZW5jZRgEIAMoCzIYLmxhZGRlci52MS5FdmlkZW5jZUJsb2NrEhQKDGNoYXRfaGlzdG9yeRgFIAMoCSLKAgoOQ2xhcmlmeVJlcXVlc3QSEgoKc2Vzc2lvbl9pZBgBIAEoCRIkCgR0eXBlGAIgASgOMhYubGFkZGVyLnYxLk1lc3NhZ2VUeXBlEg4KBnJlYXNvbhgDIAEoCRINCgVxdWVyeRgEIAEoCRITCgt1aV9sYW5ndWFnZRgFIAEoCRIYChByZXF1ZXN0X2xhbmd1YWdlGAYgASgJEhMKC3JlZ2lvbl9jb2RlGAcgASgJEg4KBmludGVudBgIIAEoCRIfChdiYXNlbGluZV9taXNzaW5nX2ZpZWxkcxgJIAMoCRIoCgpjYW5kaWRhdGVzGAogAygLMhQubGFkZGVyLnYxLkNhbmRpZGF0ZRIUCgxyZXN1bHRfY291bnQYCyABKA0SDwoHdHVybl9pZBgMIAEoCRIZChFiYXNlbGluZV9xdWVzdGlvbhgNIAEoCSKgAgoPQ2xhcmlmeVJlc3BvbnNlEg8KB21lc3NhZ2UYASABKAkSEAoIcXVlc3Rpb24YAiABKAkSGAoQc3VnZ2VzdGVkX2FjdGlvbhgDIAEoCRIVCg1ibG9ja3Nfc2VhcmNoGAQgASgIEhAKCGxhbmd1YWdlGAUgASgJEg4KBnNvdXJjZRgGIAEoCRIbChNlbmZvcmNlZF9pbnZhcmlhbnRzGAcgAygJEhkKEXZhbGlkYXRpb25faXNzdWVzGAggAygJEhYKDm1pc3NpbmdfZmllbGRzGAkgAygJEhYKDnNjaGVtYV92ZXJzaW9uGAogASgJEhYKDnByb21wdF92ZXJzaW9uGAsgASgJEhcKD2xhbmd1YWdlX3NvdXJjZRgMIAEoCSI+CghTbG90U3BlYxIMCgRuYW1lGAEgASgJEiQKBnZhbHVlcxgCIAMoCzIULmxhZGRlci52MS5TbG90VmFsdWUiLAoJU2xvdFZhbHVlEg0KBXZhbHVlGAEgASgJEhAKCHN5bm9ueW1zGAIgAygJIu8BCg5FeHRyYWN0UmVxdWVzdBISCgpzZXNzaW9uX2lkGAEgASgJEg8KB3R1cm5faWQYAiABKAkSDAoEdGV4dBgDIAEoCRIiCgVzbG90cxgEIAMoCzITLmxhZGRlci52MS5TbG90U3BlYxI1CgZmaWxsZWQYBSADKAsyJS5sYWRkZXIudjEuRXh0cmFjdFJlcXVlc3QuRmlsbGVkRW50cnkSDgoGaW50ZW50GAYgASgJEhAKCGxhbmd1YWdlGAcgASgJGi0KC0ZpbGxlZEVudHJ5EgsKA2tleRgBIAEoCRINCgV2YWx1ZRgCIAEoCToCOAEiPgoPRXh0cmFjdGVkRW50aXR5EgwKBHNsb3QYASABKAkSDQoFdmFsdWUYAiABKAkSDgoGc291cmNlGAMgASgJIlMKCkhpbnRSZXBvcnQSEQoJY29tcG9uZW50GAEgASgJEg4KBnN0YXR1cxgCIAEoCRIOCgZkZXRhaWwYAyABKAkSEgoKbGF0ZW5jeV9tcxgEIAEoDSLiAQoPRXh0cmFjdFJlc3BvbnNlEiwKCGVudGl0aWVzGAEgAygLMhoubGFkZGVyLnYxLkV4dHJhY3RlZEVudGl0eRIXCg9ub3JtYWxpemVkX3RleHQYAiABKAkSHgoWbm9ybWFsaXphdGlvbl9hY2NlcHRlZBgDIAEoCBISCgpkZWNpZGVkX2J5GAQgASgJEiQKBWhpbnRzGAUgAygLMhUubGFkZGVyLnYxLkhpbnRSZXBvcnQSFgoOc2NoZW1hX3ZlcnNpb24YBiABKAkSFgoOcHJvbXB0X3ZlcnNpb24YByABKAkixAEKFFJlY29yZE91dGNvbWVSZXF1ZXN0EhIKCnNlc3Npb25faWQYASABKAkSEwoLZGVjaXNpb25faWQYAiABKAkSJAoEa2luZBgDIAEoDjIWLmxhZGRlci52MS5PdXRjb21lS2luZBIRCgljaG9pY2VfaWQYBCABKAkSDwoHdHVybl9pZBgFIAEoCRIiCgVzY29wZRgGIAEoCzITLmxhZGRlci52MS5TY29wZVJlZhIVCg1vcHRpb25fc2V0X2lkGAcgASgJIkEKFVJlY29yZE91dGNvbWVSZXNwb25zZRIoCgdzZXNzaW9uGAEgASgLMhcubGFkZGVyLnYxLlNlc3Npb25TdGF0ZSKVAQoLQWN0aW9uRW50cnkSDAoEdHlwZRgBIAEoCRISCgp0YXJnZXRfcmVmGAIgASgJEiYKDHNvdXJjZV9zY29wZRgDIAEoDjIQLmxhZGRlci52MS5TY29wZRIVCg1vcHRpb25fc2V0X2lkGAQgASgJEhQKDHRpbWVzdGFtcF9tcxgFIAEoAxIPCgdvdXRjb21lGAYgASgJIsUDCgxTZXNzaW9uU3RhdGUSEgoKc2Vzc2lvbl9pZBgBIAEoCRI0ChRsYXN0X3Jlc29sdmVkX2FjdGlvbhgCIAEoCzIWLmxhZGRlci52MS5BY3Rpb25FbnRyeRIzChNyZWNlbnRfYWN0aW9uX3RyYWNlGAMgAygLMhYubGFkZGVyLnYxLkFjdGlvbkVudHJ5Eh8KF2xhc3RfYWNjZXB0ZWRfY2hvaWNlX2lkGAQgASgJEiIKGnJlY2VudF9hY2NlcHRlZF9jaG9pY2VfaWRzGAUgAygJEiIKGnJlY2VudF9yZWplY3RlZF9jaG9pY2VfaWRzGAYgAygJEhwKFGFjdGl2ZV9vcHRpb25fc2V0X2lkGAcgASgJEikKDGFjdGl2ZV9zY29wZRgIIAEoCzITLmxhZGRlci52MS5TY29wZVJlZhI/ChZwZW5kaW5nX2NsYXJpZmllcl90eXBlGAkgASgOMh8ubGFkZGVyLnYxLlBlbmRpbmdDbGFyaWZpZXJUeXBlEhIKCnR1cm5fY291bnQYCiABKAQSGAoQY29udGludWl0eV9mcmVzaBgLIAEoCBIVCg1sb29wX2N5Y2xlX2lkGAwgASgJIicKEUdldFNlc3Npb25SZXF1ZXN0EhIKCnNlc3Npb25faWQYASABKAkiKQoTUmVzZXRTZXNzaW9uUmVxdWVzdBISCgpzZXNzaW9uX2lkGAEgASgJIicKFFJlc2V0U2Vzc2lvblJlc3BvbnNlEg8KB2V4aXN0ZWQYASABKAgiEwoRR2V0Um9sbG91dFJlcXVlc3QiIwoTUmVzZXRSb2xsb3V0UmVxdWVzdBIMCgRub3RlGAEgASgJImUKD0d1YXJkcmFpbEJyZWFjaBIOCgZjb2hvcnQYASABKAkSDgoGZmlndXJlGAIgASgJEg0KBXZhbHVlGAMgASgBEhAKCGJhc2VsaW5lGAQgASgBEhEKCXRocmVzaG9sZBgFIAEoASL5AQoNQ29ob3J0RmlndXJlcxIOCgZjb2hvcnQYASABKAkSEQoJZGVjaXNpb25zGAIgASgEEhYKDmNsYXJpZmllcl9yYXRlGAMgASgBEhAKCGV4ZWN1dGVkGAQgASgEEhUKDXdyb25nX2FjdGlvbnMYBSABKAQSGQoRd3JvbmdfYWN0aW9uX3JhdGUYBiABKAESFgoOcDk1X2xhdGVuY3lfbXMYByABKAESDwoHcmV0cmllcxgIIAEoBBIpCiF1bmNoYW5nZWRfZmluZ2VycHJpbnRfcmV0cnlfc2hhcmUYCSABKAESFQoNY29tcGFyZWRfd2l0aBgKIAEoCSKlAwoMUm9sbG91dFN0YXRlEhcKD2NvbmZpZ19yZXZpc2lvbhgBIAEoCRIQCghsbG1fbW9kZRgCIAEoCRIfChdhdXRvX2V4ZWN1dGVfY29uZmlndXJlZBgDIAEoCBIcChRhdXRvX2V4ZWN1dGVfdHJpcHBlZBgEIAEoCBIeChZhdXRvX2V4ZWN1dGVfZWZmZWN0aXZlGAUgASgIEhUKDXRyaXBwZWRfYXRfbXMYBiABKAMSMQoNdHJpcF9icmVhY2hlcxgHIAMoCzIaLmxhZGRlci52MS5HdWFyZHJhaWxCcmVhY2gSKQoHY29ob3J0cxgIIAMoCzIYLmxhZGRlci52MS5Db2hvcnRGaWd1cmVzEiwKCGJyZWFjaGVzGAkgAygLMhoubGFkZGVyLnYxLkd1YXJkcmFpbEJyZWFjaBIWCg5jb25maWdfcmVsb2FkcxgKIAEoBBIeChZjb25maWdfcmVsb2FkX2ZhaWx1cmVzGAsgASgEEhkKEWxhc3RfcmVsb2FkX2Vycm9yGAwgASgJEhUKDW5hbWVkX2NvaG9ydHMYDSADKAkqagoFU2NvcGUSFQoRU0NPUEVfVU5TUEVDSUZJRUQQABIOCgpTQ09QRV9DSEFUEAESEAoMU0NPUEVfV0lER0VUEAISEwoPU0NPUEVfREFTSEJPQVJEEAMSEwoPU0NPUEVfV09SS1NQQUNFEAQqPAoEUmlzaxIUChBSSVNLX1VOU1BFQ0lGSUVEEAASDwoLUklTS19OT1JNQUwQARINCglSSVNLX0hJR0gQAipICgVBc2tlZBIVChFBU0tFRF9VTlNQRUNJRklFRBAAEhYKEkFTS0VEX0NPTkZJUk1BVElPThABEhAKDEFTS0VEX0NIT0lDRRACKnwKB091dGNvbWUSFwoTT1VUQ09NRV9VTlNQRUNJRklFRBAAEhMKD09VVENPTUVfRVhFQ1VURRABEhMKD09VVENPTUVfQ0xBUklGWRACEhIKDk9VVENPTUVfRVNDQVBFEAMSGgoWT1VUQ09NRV9ORUVEX01PUkVfSU5GTxAEKmYKB0RlY2lkZXISFwoTREVDSURFUl9VTlNQRUNJRklFRBAAEhkKFURFQ0lERVJfREVURVJNSU5JU1RJQxABEhYKEkRFQ0lERVJfQ09OVElOVUlUWRACEg8KC0RFQ0lERVJfTExNEAMqzAEKEENvbmZpZGVuY2VCdWNrZXQSIQodQ09ORklERU5DRV9CVUNLRVRfVU5TUEVDSUZJRUQQABItCilDT05GSURFTkNFX0JVQ0tFVF9ISUdIX0NPTkZJREVOQ0VfRVhFQ1VURRABEjEKLUNPTkZJREVOQ0VfQlVDS0VUX0xPV19DT05GSURFTkNFX0xMTV9FTElHSUJMRRACEjMKL0NPTkZJREVOQ0VfQlVDS0VUX0xPV19DT05GSURFTkNFX0NMQVJJRklFUl9PTkxZEAMqswIKD0FtYmlndWl0eVJlYXNvbhIgChxBTUJJR1VJVFlfUkVBU09OX1VOU1BFQ0lGSUVEEAASMAosQU1CSUdVSVRZX1JFQVNPTl9NVUxUSV9NQVRDSF9OT19FWEFDVF9XSU5ORVIQARIlCiFBTUJJR1VJVFlfUkVBU09OX0NST1NTX1NPVVJDRV9USUUQAhIjCh9BTUJJR1VJVFlfUkVBU09OX1RZUE9fQU1CSUdVT1VTEAMSMAosQU1CSUdVSVRZX1JFQVNPTl9DT01NQU5EX1NFTEVDVElPTl9DT0xMSVNJT04QBBIhCh1BTUJJR1VJVFlfUkVBU09OX05PX0NBTkRJREFURRAFEisKJ0FNQklHVUlUWV9SRUFTT05fTk9fREVURVJNSU5JU1RJQ19NQVRDSBAGKrYECg5GYWxsYmFja1JlYXNvbhIfChtGQUxMQkFDS19SRUFTT05fVU5TUEVDSUZJRUQQABIbChdGQUxMQkFDS19SRUFTT05fVElNRU9VVBABEiAKHEZBTExCQUNLX1JFQVNPTl9SQVRFX0xJTUlURUQQAhIjCh9GQUxMQkFDS19SRUFTT05fVFJBTlNQT1JUX0VSUk9SEAMSGwoXRkFMTEJBQ0tfUkVBU09OX0FCU1RBSU4QBBIiCh5GQUxMQkFDS19SRUFTT05fTE9XX0NPTkZJREVOQ0UQBRIjCh9GQUxMQkFDS19SRUFTT05fTk9fTkVXX0VWSURFTkNFEAYSJAogRkFMTEJBQ0tfUkVBU09OX0JVREdFVF9FWEhBVVNURUQQBxIeChpGQUxMQkFDS19SRUFTT05fTE9PUF9HVUFSRBAIEiAKHEZBTExCQUNLX1JFQVNPTl9MTE1fRElTQUJMRUQQCRIiCh5GQUxMQkFDS19SRUFTT05fTExNX09WRVJMT0FERUQQChIgChxGQUxMQkFDS19SRUFTT05fQ0lSQ1VJVF9PUEVOEAsSHAoYRkFMTEJBQ0tfUkVBU09OX0RFQURMSU5FEAwSJQohRkFMTEJBQ0tfUkVBU09OX1NUQVRFX1VOQVZBSUxBQkxFEA0SJAogRkFMTEJBQ0tfUkVBU09OX05PVF9DT1JST0JPUkFURUQQDhIgChxGQUxMQkFDS19SRUFTT05fVVNFUl9SRUZVU0VEEA8qZwoMRm9sbG93VXBLaW5kEh4KGkZPTExPV19VUF9LSU5EX1VOU1BFQ0lGSUVEEAASGwoXRk9MTE9XX1VQX0tJTkRfUVVFU1RJT04QARIaChZGT0xMT1dfVVBfS0lORF9SRVFVRVNUEAIqmwEKC01lc3NhZ2VUeXBlEhwKGE1FU1NBR0VfVFlQRV9VTlNQRUNJRklFRBAAEhgKFE1FU1NBR0VfVFlQRV9DTEFSSUZZEAESGAoUTUVTU0FHRV9UWVBFX1NVTU1BUlkQAhIaChZNRVNTQUdFX1RZUEVfR0FURV9GQUlMEAMSHgoaTUVTU0FHRV9UWVBFX1NFQVJDSF9GQUlMRUQQBCqYAQoLT3V0Y29tZUtpbmQSHAoYT1VUQ09NRV9LSU5EX1VOU1BFQ0lGSUVEEAASGQoVT1VUQ09NRV9LSU5EX0FDQ0VQVEVEEAESGQoVT1VUQ09NRV9LSU5EX0VYRUNVVEVEEAISGQoVT1VUQ09NRV9LSU5EX1JFSkVDVEVEEAMSGgoWT1VUQ09NRV9LSU5EX0NPUlJFQ1RFRBAEKroCChRQZW5kaW5nQ2xhcmlmaWVyVHlwZRImCiJQRU5ESU5HX0NMQVJJRklFUl9UWVBFX1VOU1BFQ0lGSUVEEAASHwobUEVORElOR19DTEFSSUZJRVJfVFlQRV9OT05FEAESMwovUEVORElOR19DTEFSSUZJRVJfVFlQRV9TRUxFQ1RJT05fRElTQU1CSUdVQVRJT04QAhIvCitQRU5ESU5HX0NMQVJJRklFUl9UWVBFX1NDT1BFX0RJU0FNQklHVUFUSU9OEAMSJwojUEVORElOR19DTEFSSUZJRVJfVFlQRV9NSVNTSU5HX1NMT1QQBBInCiNQRU5ESU5HX0NMQVJJRklFUl9UWVBFX0NPTkZJUk1BVElPThAFEiEKHVBFTkRJTkdfQ0xBUklGSUVSX1RZUEVfUkVQQUlSEAYy9wQKB0FyYml0ZXISNwoGRGVjaWRlEhgubGFkZGVyLnYxLkRlY2lkZVJlcXVlc3QaEy5sYWRkZXIudjEuRGVjaXNpb24SNwoGRW5yaWNoEhgubGFkZGVyLnYxLkVucmljaFJlcXVlc3QaEy5sYWRkZXIudjEuRGVjaXNpb24SQAoHQ2xhcmlmeRIZLmxhZGRlci52MS5DbGFyaWZ5UmVxdWVzdBoaLmxhZGRlci52MS5DbGFyaWZ5UmVzcG9uc2USQAoHRXh0cmFjdBIZLmxhZGRlci52MS5FeHRyYWN0UmVxdWVzdBoaLmxhZGRlci52MS5FeHRyYWN0UmVzcG9uc2USUgoNUmVjb3JkT3V0Y29tZRIfLmxhZGRlci52MS5SZWNvcmRPdXRjb21lUmVxdWVzdBogLmxhZGRlci52MS5SZWNvcmRPdXRjb21lUmVzcG9uc2USQwoKR2V0U2Vzc2lvbhIcLmxhZGRlci52MS5HZXRTZXNzaW9uUmVxdWVzdBoXLmxhZGRlci52MS5TZXNzaW9uU3RhdGUSTwoMUmVzZXRTZXNzaW9uEh4ubGFkZGVyLnYxLlJlc2V0U2Vzc2lvblJlcXVlc3QaHy5sYWRkZXIudjEuUmVzZXRTZXNzaW9uUmVzcG9uc2USQwoKR2V0Um9sbG91dBIcLmxhZGRlci52MS5HZXRSb2xsb3V0UmVxdWVzdBoXLmxhZGRlci52MS5Sb2xsb3V0U3RhdGUSRwoMUmVzZXRSb2xsb3V0Eh4ubGFkZGVyLnYxLlJlc2V0Um9sbG91dFJlcXVlc3QaFy5sYWRkZXIudjEuUm9sbG91dFN0YXRlYgZwcm90bzM");
/**
 * Describes the message ladder.v1.ScopeRef.
 * Use `create(ScopeRefSchema)` to create a new message.
 */
export const ScopeRefSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 0);
/**
 * Describes the message ladder.v1.Candidate.
 * Use `create(CandidateSchema)` to create a new message.
 */
export const CandidateSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 1);
/**
 * Describes the message ladder.v1.OptionSet.
 * Use `create(OptionSetSchema)` to create a new message.
 */
export const OptionSetSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 2);
/**
 * Describes the message ladder.v1.DecideRequest.
 * Use `create(DecideRequestSchema)` to create a new message.
 */
export const DecideRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 3);
/**
 * Describes the message ladder.v1.Clarifier.
 * Use `create(ClarifierSchema)` to create a new message.
 */
export const ClarifierSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 4);
/**
 * Describes the message ladder.v1.LlmReport.
 * Use `create(LlmReportSchema)` to create a new message.
 */
export const LlmReportSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 5);
/**
 * Describes the message ladder.v1.Step.
 * Use `create(StepSchema)` to create a new message.
 */
export const StepSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 6);
/**
 * Describes the message ladder.v1.Decision.
 * Use `create(DecisionSchema)` to create a new message.
 */
export const DecisionSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 7);
/**
 * Describes the message ladder.v1.FollowUp.
 * Use `create(FollowUpSchema)` to create a new message.
 */
export const FollowUpSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 8);
/**
 * Describes the message ladder.v1.EvidenceBlock.
 * Use `create(EvidenceBlockSchema)` to create a new message.
 */
export const EvidenceBlockSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 9);
/**
 * Describes the message ladder.v1.EnrichRequest.
 * Use `create(EnrichRequestSchema)` to create a new message.
 */
export const EnrichRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 10);
/**
 * Describes the message ladder.v1.ClarifyRequest.
 * Use `create(ClarifyRequestSchema)` to create a new message.
 */
export const ClarifyRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 11);
/**
 * Describes the message ladder.v1.ClarifyResponse.
 * Use `create(ClarifyResponseSchema)` to create a new message.
 */
export const ClarifyResponseSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 12);
/**
 * Describes the message ladder.v1.SlotSpec.
 * Use `create(SlotSpecSchema)` to create a new message.
 */
export const SlotSpecSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 13);
/**
 * Describes the message ladder.v1.SlotValue.
 * Use `create(SlotValueSchema)` to create a new message.
 */
export const SlotValueSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 14);
/**
 * Describes the message ladder.v1.ExtractRequest.
 * Use `create(ExtractRequestSchema)` to create a new message.
 */
export const ExtractRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 15);
/**
 * Describes the message ladder.v1.ExtractedEntity.
 * Use `create(ExtractedEntitySchema)` to create a new message.
 */
export const ExtractedEntitySchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 16);
/**
 * Describes the message ladder.v1.HintReport.
 * Use `create(HintReportSchema)` to create a new message.
 */
export const HintReportSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 17);
/**
 * Describes the message ladder.v1.ExtractResponse.
 * Use `create(ExtractResponseSchema)` to create a new message.
 */
export const ExtractResponseSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 18);
/**
 * Describes the message ladder.v1.RecordOutcomeRequest.
 * Use `create(RecordOutcomeRequestSchema)` to create a new message.
 */
export const RecordOutcomeRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 19);
/**
 * Describes the message ladder.v1.RecordOutcomeResponse.
 * Use `create(RecordOutcomeResponseSchema)` to create a new message.
 */
export const RecordOutcomeResponseSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 20);
/**
 * Describes the message ladder.v1.ActionEntry.
 * Use `create(ActionEntrySchema)` to create a new message.
 */
export const ActionEntrySchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 21);
/**
 * Describes the message ladder.v1.SessionState.
 * Use `create(SessionStateSchema)` to create a new message.
 */
export const SessionStateSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 22);
/**
 * Describes the message ladder.v1.GetSessionRequest.
 * Use `create(GetSessionRequestSchema)` to create a new message.
 */
export const GetSessionRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 23);
/**
 * Describes the message ladder.v1.ResetSessionRequest.
 * Use `create(ResetSessionRequestSchema)` to create a new message.
 */
export const ResetSessionRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 24);
/**
 * Describes the message ladder.v1.ResetSessionResponse.
 * Use `create(ResetSessionResponseSchema)` to create a new message.
 */
export const ResetSessionResponseSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 25);
/**
 * Describes the message ladder.v1.GetRolloutRequest.
 * Use `create(GetRolloutRequestSchema)` to create a new message.
 */
export const GetRolloutRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 26);
/**
 * Describes the message ladder.v1.ResetRolloutRequest.
 * Use `create(ResetRolloutRequestSchema)` to create a new message.
 */
export const ResetRolloutRequestSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 27);
/**
 * Describes the message ladder.v1.GuardrailBreach.
 * Use `create(GuardrailBreachSchema)` to create a new message.
 */
export const GuardrailBreachSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 28);
/**
 * Describes the message ladder.v1.CohortFigures.
 * Use `create(CohortFiguresSchema)` to create a new message.
 */
export const CohortFiguresSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 29);
/**
 * Describes the message ladder.v1.RolloutState.
 * Use `create(RolloutStateSchema)` to create a new message.
 */
export const RolloutStateSchema = /*@__PURE__*/ messageDesc(file_ladder_v1_ladder, 30);
/**
 * @generated from enum ladder.v1.Scope
 */
export var Scope;
(function (Scope) {
    /**
     * @generated from enum value: SCOPE_UNSPECIFIED = 0;
     */
    Scope[Scope["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: SCOPE_CHAT = 1;
     */
    Scope[Scope["CHAT"] = 1] = "CHAT";
    /**
     * @generated from enum value: SCOPE_WIDGET = 2;
     */
    Scope[Scope["WIDGET"] = 2] = "WIDGET";
    /**
     * @generated from enum value: SCOPE_DASHBOARD = 3;
     */
    Scope[Scope["DASHBOARD"] = 3] = "DASHBOARD";
    /**
     * @generated from enum value: SCOPE_WORKSPACE = 4;
     */
    Scope[Scope["WORKSPACE"] = 4] = "WORKSPACE";
})(Scope || (Scope = {}));
/**
 * Describes the enum ladder.v1.Scope.
 */
export const ScopeSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 0);
/**
 * How much a wrong execute of a candidate costs. Risk only ever makes a
 * decision safer.
 *
 * @generated from enum ladder.v1.Risk
 */
export var Risk;
(function (Risk) {
    /**
     * Read as RISK_NORMAL, or as RISK_HIGH when the candidate's `kind` is in
     * the configuration's `matching.high_risk_kinds`.
     *
     * @generated from enum value: RISK_UNSPECIFIED = 0;
     */
    Risk[Risk["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: RISK_NORMAL = 1;
     */
    Risk[Risk["NORMAL"] = 1] = "NORMAL";
    /**
     * @generated from enum value: RISK_HIGH = 2;
     */
    Risk[Risk["HIGH"] = 2] = "HIGH";
})(Risk || (Risk = {}));
/**
 * Describes the enum ladder.v1.Risk.
 */
export const RiskSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 1);
/**
 * What the screen asks (docs/replies.md): the app's own question, read
 * like ladderd's own clarifier or confirmation. A reply ("yes", "the
 * second one", "the cheaper one") is read against it.
 *
 * @generated from enum ladder.v1.Asked
 */
export var Asked;
(function (Asked) {
    /**
     * A plain screen: the app asked nothing of these options.
     *
     * @generated from enum value: ASKED_UNSPECIFIED = 0;
     */
    Asked[Asked["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * The app asked the user to confirm its one candidate ("Book a table
     * for 2 at 7:00 PM?"): an affirmation executes it, RISK_HIGH included.
     *
     * @generated from enum value: ASKED_CONFIRMATION = 1;
     */
    Asked[Asked["CONFIRMATION"] = 1] = "CONFIRMATION";
    /**
     * The app asked "which one?" of its candidates: positions count in
     * their order, and a detail only one of them shows picks it.
     *
     * @generated from enum value: ASKED_CHOICE = 2;
     */
    Asked[Asked["CHOICE"] = 2] = "CHOICE";
})(Asked || (Asked = {}));
/**
 * Describes the enum ladder.v1.Asked.
 */
export const AskedSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 2);
/**
 * @generated from enum ladder.v1.Outcome
 */
export var Outcome;
(function (Outcome) {
    /**
     * @generated from enum value: OUTCOME_UNSPECIFIED = 0;
     */
    Outcome[Outcome["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: OUTCOME_EXECUTE = 1;
     */
    Outcome[Outcome["EXECUTE"] = 1] = "EXECUTE";
    /**
     * @generated from enum value: OUTCOME_CLARIFY = 2;
     */
    Outcome[Outcome["CLARIFY"] = 2] = "CLARIFY";
    /**
     * @generated from enum value: OUTCOME_ESCAPE = 3;
     */
    Outcome[Outcome["ESCAPE"] = 3] = "ESCAPE";
    /**
     * @generated from enum value: OUTCOME_NEED_MORE_INFO = 4;
     */
    Outcome[Outcome["NEED_MORE_INFO"] = 4] = "NEED_MORE_INFO";
})(Outcome || (Outcome = {}));
/**
 * Describes the enum ladder.v1.Outcome.
 */
export const OutcomeSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 3);
/**
 * Whose judgement the outcome rests on. Read `decided_by` to know whether
 * to trust an EXECUTE (and for dashboards of who decides); read
 * `handled_by_tier` to know which rung of the ladder ended the run (for
 * debugging and tuning). They differ on purpose: an LLM pick that fails a
 * gate ends in the fallback tier with `decided_by` DETERMINISTIC (the
 * clarifier is the deterministic ranking); a clarifier the LLM reordered is
 * `decided_by` LLM, tier `llm` or `fallback`.
 *
 * @generated from enum ladder.v1.Decider
 */
export var Decider;
(function (Decider) {
    /**
     * Never sent.
     *
     * @generated from enum value: DECIDER_UNSPECIFIED = 0;
     */
    Decider[Decider["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * The deterministic rungs (exclusions, scope, matching, classify) or the
     * deterministic fallback: the same input and pool always decide the same.
     *
     * @generated from enum value: DECIDER_DETERMINISTIC = 1;
     */
    Decider[Decider["DETERMINISTIC"] = 1] = "DETERMINISTIC";
    /**
     * The continuity resolver: the session's state (an earlier clarifier,
     * its answer) resolved a tie under its strict rules.
     *
     * @generated from enum value: DECIDER_CONTINUITY = 2;
     */
    Decider[Decider["CONTINUITY"] = 2] = "CONTINUITY";
    /**
     * The LLM rung: an EXECUTE that passed every auto-execute gate
     * (confidence, allowed reason, corroboration), or a clarifier or
     * NEED_MORE_INFO the model's verdict shaped (its pick suggested first).
     *
     * @generated from enum value: DECIDER_LLM = 3;
     */
    Decider[Decider["LLM"] = 3] = "LLM";
})(Decider || (Decider = {}));
/**
 * Describes the enum ladder.v1.Decider.
 */
export const DeciderSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 4);
/**
 * @generated from enum ladder.v1.ConfidenceBucket
 */
export var ConfidenceBucket;
(function (ConfidenceBucket) {
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_UNSPECIFIED = 0;
     */
    ConfidenceBucket[ConfidenceBucket["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_HIGH_CONFIDENCE_EXECUTE = 1;
     */
    ConfidenceBucket[ConfidenceBucket["HIGH_CONFIDENCE_EXECUTE"] = 1] = "HIGH_CONFIDENCE_EXECUTE";
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_LOW_CONFIDENCE_LLM_ELIGIBLE = 2;
     */
    ConfidenceBucket[ConfidenceBucket["LOW_CONFIDENCE_LLM_ELIGIBLE"] = 2] = "LOW_CONFIDENCE_LLM_ELIGIBLE";
    /**
     * @generated from enum value: CONFIDENCE_BUCKET_LOW_CONFIDENCE_CLARIFIER_ONLY = 3;
     */
    ConfidenceBucket[ConfidenceBucket["LOW_CONFIDENCE_CLARIFIER_ONLY"] = 3] = "LOW_CONFIDENCE_CLARIFIER_ONLY";
})(ConfidenceBucket || (ConfidenceBucket = {}));
/**
 * Describes the enum ladder.v1.ConfidenceBucket.
 */
export const ConfidenceBucketSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 5);
/**
 * @generated from enum ladder.v1.AmbiguityReason
 */
export var AmbiguityReason;
(function (AmbiguityReason) {
    /**
     * @generated from enum value: AMBIGUITY_REASON_UNSPECIFIED = 0;
     */
    AmbiguityReason[AmbiguityReason["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: AMBIGUITY_REASON_MULTI_MATCH_NO_EXACT_WINNER = 1;
     */
    AmbiguityReason[AmbiguityReason["MULTI_MATCH_NO_EXACT_WINNER"] = 1] = "MULTI_MATCH_NO_EXACT_WINNER";
    /**
     * @generated from enum value: AMBIGUITY_REASON_CROSS_SOURCE_TIE = 2;
     */
    AmbiguityReason[AmbiguityReason["CROSS_SOURCE_TIE"] = 2] = "CROSS_SOURCE_TIE";
    /**
     * @generated from enum value: AMBIGUITY_REASON_TYPO_AMBIGUOUS = 3;
     */
    AmbiguityReason[AmbiguityReason["TYPO_AMBIGUOUS"] = 3] = "TYPO_AMBIGUOUS";
    /**
     * @generated from enum value: AMBIGUITY_REASON_COMMAND_SELECTION_COLLISION = 4;
     */
    AmbiguityReason[AmbiguityReason["COMMAND_SELECTION_COLLISION"] = 4] = "COMMAND_SELECTION_COLLISION";
    /**
     * @generated from enum value: AMBIGUITY_REASON_NO_CANDIDATE = 5;
     */
    AmbiguityReason[AmbiguityReason["NO_CANDIDATE"] = 5] = "NO_CANDIDATE";
    /**
     * @generated from enum value: AMBIGUITY_REASON_NO_DETERMINISTIC_MATCH = 6;
     */
    AmbiguityReason[AmbiguityReason["NO_DETERMINISTIC_MATCH"] = 6] = "NO_DETERMINISTIC_MATCH";
})(AmbiguityReason || (AmbiguityReason = {}));
/**
 * Describes the enum ladder.v1.AmbiguityReason.
 */
export const AmbiguityReasonSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 6);
/**
 * @generated from enum ladder.v1.FallbackReason
 */
export var FallbackReason;
(function (FallbackReason) {
    /**
     * No fallback happened.
     *
     * @generated from enum value: FALLBACK_REASON_UNSPECIFIED = 0;
     */
    FallbackReason[FallbackReason["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: FALLBACK_REASON_TIMEOUT = 1;
     */
    FallbackReason[FallbackReason["TIMEOUT"] = 1] = "TIMEOUT";
    /**
     * @generated from enum value: FALLBACK_REASON_RATE_LIMITED = 2;
     */
    FallbackReason[FallbackReason["RATE_LIMITED"] = 2] = "RATE_LIMITED";
    /**
     * @generated from enum value: FALLBACK_REASON_TRANSPORT_ERROR = 3;
     */
    FallbackReason[FallbackReason["TRANSPORT_ERROR"] = 3] = "TRANSPORT_ERROR";
    /**
     * @generated from enum value: FALLBACK_REASON_ABSTAIN = 4;
     */
    FallbackReason[FallbackReason["ABSTAIN"] = 4] = "ABSTAIN";
    /**
     * @generated from enum value: FALLBACK_REASON_LOW_CONFIDENCE = 5;
     */
    FallbackReason[FallbackReason["LOW_CONFIDENCE"] = 5] = "LOW_CONFIDENCE";
    /**
     * @generated from enum value: FALLBACK_REASON_NO_NEW_EVIDENCE = 6;
     */
    FallbackReason[FallbackReason["NO_NEW_EVIDENCE"] = 6] = "NO_NEW_EVIDENCE";
    /**
     * @generated from enum value: FALLBACK_REASON_BUDGET_EXHAUSTED = 7;
     */
    FallbackReason[FallbackReason["BUDGET_EXHAUSTED"] = 7] = "BUDGET_EXHAUSTED";
    /**
     * @generated from enum value: FALLBACK_REASON_LOOP_GUARD = 8;
     */
    FallbackReason[FallbackReason["LOOP_GUARD"] = 8] = "LOOP_GUARD";
    /**
     * @generated from enum value: FALLBACK_REASON_LLM_DISABLED = 9;
     */
    FallbackReason[FallbackReason["LLM_DISABLED"] = 9] = "LLM_DISABLED";
    /**
     * The bound on concurrent LLM calls was full; the rung was skipped.
     *
     * @generated from enum value: FALLBACK_REASON_LLM_OVERLOADED = 10;
     */
    FallbackReason[FallbackReason["LLM_OVERLOADED"] = 10] = "LLM_OVERLOADED";
    /**
     * Repeated provider failures opened the circuit breaker; the rung was
     * skipped until the cool-down ends.
     *
     * @generated from enum value: FALLBACK_REASON_CIRCUIT_OPEN = 11;
     */
    FallbackReason[FallbackReason["CIRCUIT_OPEN"] = 11] = "CIRCUIT_OPEN";
    /**
     * Too little of the caller's deadline was left to ask the LLM.
     *
     * @generated from enum value: FALLBACK_REASON_DEADLINE = 12;
     */
    FallbackReason[FallbackReason["DEADLINE"] = 12] = "DEADLINE";
    /**
     * The shared session store (sessions.backend = "redis") could not be
     * reached: no LLM call is made without a loop-guard claim, and no
     * continuity state is trusted.
     *
     * @generated from enum value: FALLBACK_REASON_STATE_UNAVAILABLE = 13;
     */
    FallbackReason[FallbackReason["STATE_UNAVAILABLE"] = 13] = "STATE_UNAVAILABLE";
    /**
     * An auto-execute pick that a second ask over the same pool, reordered
     * and relabelled, did not confirm (auto_execute.corroboration).
     *
     * @generated from enum value: FALLBACK_REASON_NOT_CORROBORATED = 14;
     */
    FallbackReason[FallbackReason["NOT_CORROBORATED"] = 14] = "NOT_CORROBORATED";
    /**
     * The LLM's pick, or the continuity resolver's winner, is one the user
     * refused within the continuity TTL (RecordOutcome REJECTED or CORRECTED,
     * in recent_rejected_choice_ids), or any pick while the session awaits a
     * repair (pending_clarifier repair): never executed; the clarifier does
     * not lead with it.
     *
     * @generated from enum value: FALLBACK_REASON_USER_REFUSED = 15;
     */
    FallbackReason[FallbackReason["USER_REFUSED"] = 15] = "USER_REFUSED";
})(FallbackReason || (FallbackReason = {}));
/**
 * Describes the enum ladder.v1.FallbackReason.
 */
export const FallbackReasonSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 7);
/**
 * @generated from enum ladder.v1.FollowUpKind
 */
export var FollowUpKind;
(function (FollowUpKind) {
    /**
     * No follow-up: the decision consumed the whole input.
     *
     * @generated from enum value: FOLLOW_UP_KIND_UNSPECIFIED = 0;
     */
    FollowUpKind[FollowUpKind["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * The rest asks something ("Yes, what's their address?"): answer it.
     *
     * @generated from enum value: FOLLOW_UP_KIND_QUESTION = 1;
     */
    FollowUpKind[FollowUpKind["QUESTION"] = 1] = "QUESTION";
    /**
     * The rest is a request of its own ("Sounds good. Can you also book a
     * cab there?"): send it to Decide as the next turn.
     *
     * @generated from enum value: FOLLOW_UP_KIND_REQUEST = 2;
     */
    FollowUpKind[FollowUpKind["REQUEST"] = 2] = "REQUEST";
})(FollowUpKind || (FollowUpKind = {}));
/**
 * Describes the enum ladder.v1.FollowUpKind.
 */
export const FollowUpKindSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 8);
/**
 * @generated from enum ladder.v1.MessageType
 */
export var MessageType;
(function (MessageType) {
    /**
     * @generated from enum value: MESSAGE_TYPE_UNSPECIFIED = 0;
     */
    MessageType[MessageType["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: MESSAGE_TYPE_CLARIFY = 1;
     */
    MessageType[MessageType["CLARIFY"] = 1] = "CLARIFY";
    /**
     * @generated from enum value: MESSAGE_TYPE_SUMMARY = 2;
     */
    MessageType[MessageType["SUMMARY"] = 2] = "SUMMARY";
    /**
     * @generated from enum value: MESSAGE_TYPE_GATE_FAIL = 3;
     */
    MessageType[MessageType["GATE_FAIL"] = 3] = "GATE_FAIL";
    /**
     * @generated from enum value: MESSAGE_TYPE_SEARCH_FAILED = 4;
     */
    MessageType[MessageType["SEARCH_FAILED"] = 4] = "SEARCH_FAILED";
})(MessageType || (MessageType = {}));
/**
 * Describes the enum ladder.v1.MessageType.
 */
export const MessageTypeSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 9);
/**
 * @generated from enum ladder.v1.OutcomeKind
 */
export var OutcomeKind;
(function (OutcomeKind) {
    /**
     * @generated from enum value: OUTCOME_KIND_UNSPECIFIED = 0;
     */
    OutcomeKind[OutcomeKind["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * The user picked an option (e.g. from a clarifier).
     *
     * @generated from enum value: OUTCOME_KIND_ACCEPTED = 1;
     */
    OutcomeKind[OutcomeKind["ACCEPTED"] = 1] = "ACCEPTED";
    /**
     * The app executed an action.
     *
     * @generated from enum value: OUTCOME_KIND_EXECUTED = 2;
     */
    OutcomeKind[OutcomeKind["EXECUTED"] = 2] = "EXECUTED";
    /**
     * The user rejected the action or suggestion.
     *
     * @generated from enum value: OUTCOME_KIND_REJECTED = 3;
     */
    OutcomeKind[OutcomeKind["REJECTED"] = 3] = "REJECTED";
    /**
     * The user corrected it to another choice (`choice_id`).
     *
     * @generated from enum value: OUTCOME_KIND_CORRECTED = 4;
     */
    OutcomeKind[OutcomeKind["CORRECTED"] = 4] = "CORRECTED";
})(OutcomeKind || (OutcomeKind = {}));
/**
 * Describes the enum ladder.v1.OutcomeKind.
 */
export const OutcomeKindSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 10);
/**
 * @generated from enum ladder.v1.PendingClarifierType
 */
export var PendingClarifierType;
(function (PendingClarifierType) {
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_UNSPECIFIED = 0;
     */
    PendingClarifierType[PendingClarifierType["UNSPECIFIED"] = 0] = "UNSPECIFIED";
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_NONE = 1;
     */
    PendingClarifierType[PendingClarifierType["NONE"] = 1] = "NONE";
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_SELECTION_DISAMBIGUATION = 2;
     */
    PendingClarifierType[PendingClarifierType["SELECTION_DISAMBIGUATION"] = 2] = "SELECTION_DISAMBIGUATION";
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_SCOPE_DISAMBIGUATION = 3;
     */
    PendingClarifierType[PendingClarifierType["SCOPE_DISAMBIGUATION"] = 3] = "SCOPE_DISAMBIGUATION";
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_MISSING_SLOT = 4;
     */
    PendingClarifierType[PendingClarifierType["MISSING_SLOT"] = 4] = "MISSING_SLOT";
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_CONFIRMATION = 5;
     */
    PendingClarifierType[PendingClarifierType["CONFIRMATION"] = 5] = "CONFIRMATION";
    /**
     * @generated from enum value: PENDING_CLARIFIER_TYPE_REPAIR = 6;
     */
    PendingClarifierType[PendingClarifierType["REPAIR"] = 6] = "REPAIR";
})(PendingClarifierType || (PendingClarifierType = {}));
/**
 * Describes the enum ladder.v1.PendingClarifierType.
 */
export const PendingClarifierTypeSchema = /*@__PURE__*/ enumDesc(file_ladder_v1_ladder, 11);
/**
 * Arbiter decides what a chat user meant. Deterministic code decides; an LLM
 * only advises inside a bounded set of candidates; every failure falls back
 * to a safe clarifier.
 *
 * @generated from service ladder.v1.Arbiter
 */
export const Arbiter = /*@__PURE__*/ serviceDesc(file_ladder_v1_ladder, 0);
