// libiio (Debian: libiio-dev), the kernel's Industrial I/O devices, local or through iiod.
#include <iio.h>
