package window

// Key is a key the player reacts to.
type Key int

// Keys, named for what the player does with them.
const (
	KeyNone Key = iota
	KeySpace
	KeyLeft
	KeyRight
	KeyUp
	KeyDown
	KeyPeriod
	KeyP
	KeyC
	KeyI
	KeyF
	Key9           // volume down
	Key0           // volume up
	KeyM           // mute
	KeyQuit        // q (and the window's close button)
	KeyZ           // zoom: fit, 1:1, 2:1
	Key1           // 1:1 on and off
	KeyComma       // , : one frame back
	KeyS           // s : screenshot
	KeySlower      // [ : speed down
	KeyFaster      // ] : speed up
	KeyNext        // Enter or > : next file
	KeyPrev        // < : previous file
	KeyHelp        // ? or F1 : the key list
	KeyBackspace   // Backspace : speed 1
	KeyChapterNext // PgUp or @ : the next chapter (mpv's bindings)
	KeyChapterPrev // PgDn or ! : the previous chapter
	KeyL           // l : A-B loop: set A, set B, clear
	KeyQuitSave    // Q : quit, keeping the position (watch later)
	KeySubNext     // j : the next subtitle track
	KeySubPrev     // J : the previous one
	KeySubToggle   // v : subtitles shown or hidden
	KeyEscape      // Esc: the player quits; ycbcrwall goes back to the grid
	KeyTab         // Tab
	Key2           // 2 … 8: ycbcrwall picks a tile (1 and 9 above)
	Key3
	Key4
	Key5
	Key6
	Key7
	Key8
	KeyO // o : ycbcrwall's tile labels shown or hidden
)
