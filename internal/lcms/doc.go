// Package lcms is the thin cgo leaf that transforms colours between ICC profiles with LittleCMS 2
// (https://www.littlecms.com, https://github.com/mm2/Little-CMS): the player's display profile
// (-icc-profile) is applied through a 3D LUT of such a transform.
//
// liblcms2.so.2 is loaded at run time by internal/dl (as libass and libpulse are): the programs link
// no liblcms2 and run where it is not installed; Load then returns an error, which the player reports
// when a profile is asked for. The prototypes it uses are declared in lcms.h, so the build needs no
// lcms2 headers either.
//
// LittleCMS's error text is kept in one static buffer: the caller serializes the calls that open
// profiles and make transforms (the player makes its LUT once, at start).
package lcms
