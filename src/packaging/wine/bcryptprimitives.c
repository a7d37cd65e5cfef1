/*
 * A stand-in for Windows' bcryptprimitives.dll, for testing stonebrain.exe under Debian's
 * Wine 8 only: never shipped. Rust's standard library (1.78 on) imports `ProcessPrng` from that
 * library, which Windows 10 and later have but Wine 8 does not, so under Wine 8 the program
 * would not even load. This answers the one call with Wine's own system random generator.
 * Placed next to the .exe, it is found before any system copy.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        /* BCryptGenRandom takes a 32-bit length: fill large requests in pieces. */
        ULONG piece = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, piece, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
