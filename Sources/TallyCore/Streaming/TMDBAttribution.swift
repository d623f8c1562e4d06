/// What TMDB asks every app that shows its data to say, next to that data
/// (https://www.themoviedb.org/about/logos-attribution).
public enum TMDBAttribution {
  public static let text = "This product uses the TMDB API but is not endorsed or certified by TMDB."
  /// TMDB's logo must appear with the text, less prominent than the app's own logo.
  public static let logoPage = "https://www.themoviedb.org/about/logos-attribution"
}
