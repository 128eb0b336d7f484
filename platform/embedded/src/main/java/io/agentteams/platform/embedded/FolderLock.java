package io.agentteams.platform.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive claim on a data folder, held by this process until it closes the lock or ends (the
 * operating system releases it even after a {@code kill -9}). The lock file names the holder's
 * process id, so a second process that finds the folder taken can say by whom.
 */
public final class FolderLock implements AutoCloseable {

  /** Thrown when another process (or another part of this one) holds the folder. */
  public static final class FolderInUseException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    FolderInUseException(String message) {
      super(message);
    }
  }

  private final FileChannel channel;
  private final FileLock lock;

  private FolderLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock or refuses at once.
   *
   * @param lockFile the file whose lock stands for the folder (created if missing)
   * @param what what the folder is, for the refusal's message
   * @throws FolderInUseException when someone else holds it
   */
  public static FolderLock acquire(Path lockFile, String what) {
    FileChannel channel;
    try {
      Files.createDirectories(lockFile.toAbsolutePath().getParent());
      channel =
          FileChannel.open(
              lockFile,
              StandardOpenOption.CREATE,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("could not open " + lockFile, e);
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("could not lock " + lockFile, e);
    }
    if (lock == null) {
      String holder = holder(channel);
      closeQuietly(channel);
      throw new FolderInUseException(
          what
              + " is in use by "
              + (holder.isEmpty() ? "another process" : "process " + holder)
              + " (lock "
              + lockFile
              + "). Stop that process first, or choose another folder.");
    }
    try {
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
      channel.force(false);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("could not write " + lockFile, e);
    }
    return new FolderLock(channel, lock);
  }

  private static String holder(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(32);
      channel.read(buffer, 0);
      return new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      return "";
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // Nothing was claimed through it.
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
