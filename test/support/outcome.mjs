// How a bridge call ended, as tests compare it: 'ok', or the code it rejected with (never its
// message: codes are the contract).
export async function outcome(promise) {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error.code;
  }
}
