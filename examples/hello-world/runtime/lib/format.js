// Small view helpers kept in their own module to show local imports.

/** Text for a cart confirmation, e.g. "Added. 3 items, $42.00 in your cart". */
export function cartMessage(result) {
  const items = result.itemCount === 1 ? '1 item' : `${result.itemCount} items`;
  return `Added. ${items}, ${result.total} in your cart`;
}

/** A friendly sentence for a bridge error code; never the raw exception text. */
export function friendlyError(error) {
  switch (error && error.code) {
    case 'CAPABILITY_NOT_GRANTED':
      return 'This feature is turned off for this store.';
    case 'REQUEST_TIMEOUT':
    case 'REQUEST_FAILED':
    case 'ADAPTER_UNAVAILABLE':
      return 'Something went wrong. Please try again in a moment.';
    default:
      return 'This feature is not available right now.';
  }
}
