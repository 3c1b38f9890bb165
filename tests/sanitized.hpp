// SAWTAG_TEST_SANITIZED is defined in a build with AddressSanitizer or ThreadSanitizer (gcc or
// clang), for the tests that cannot run under them: their allocators reserve the address space
// at start and take no mallopt.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SAWTAG_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SAWTAG_TEST_SANITIZED 1
#endif
#endif
