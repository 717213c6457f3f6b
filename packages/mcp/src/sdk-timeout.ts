/**
 * The longest delay a Node timer takes (about 24.8 days), given to the SDK as a request timeout so
 * its own timer (60 s by default) never fires first: Nestor's timeouts and aborts end the wait.
 */
export const NO_SDK_TIMEOUT = 2 ** 31 - 1
